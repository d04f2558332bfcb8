import datetime
from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.billing_stats import BillingStats
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    since: datetime.datetime | str | Unset = UNSET,
    until: datetime.datetime | str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    json_since: str | Unset
    if isinstance(since, Unset):
        json_since = UNSET
    elif isinstance(since, datetime.datetime):
        json_since = since.isoformat()
    else:
        json_since = since
    params["since"] = json_since

    json_until: str | Unset
    if isinstance(until, Unset):
        json_until = UNSET
    elif isinstance(until, datetime.datetime):
        json_until = until.isoformat()
    else:
        json_until = until
    params["until"] = json_until

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/admin/billing/stats",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | BillingStats | Error | None:
    if response.status_code == 200:
        response_200 = BillingStats.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())

        return response_406

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | BillingStats | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | str | Unset = UNSET,
    until: datetime.datetime | str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | BillingStats | Error]:
    """Credits spent and granted (staff)

     Credits spent (charges less refunds) in total, by operation kind, by tier and by user (top 20);
    platform spend on editions; accounts by tier.

    Changes: nothing.

    Who may call it: staff members, with a personal API token (a session is answered 401, another user's
    token 403).

    Args:
        since (datetime.datetime | str | Unset):
        until (datetime.datetime | str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | BillingStats | Error]
    """

    kwargs = _get_kwargs(
        since=since,
        until=until,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | str | Unset = UNSET,
    until: datetime.datetime | str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | BillingStats | Error | None:
    """Credits spent and granted (staff)

     Credits spent (charges less refunds) in total, by operation kind, by tier and by user (top 20);
    platform spend on editions; accounts by tier.

    Changes: nothing.

    Who may call it: staff members, with a personal API token (a session is answered 401, another user's
    token 403).

    Args:
        since (datetime.datetime | str | Unset):
        until (datetime.datetime | str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | BillingStats | Error
    """

    return sync_detailed(
        client=client,
        since=since,
        until=until,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | str | Unset = UNSET,
    until: datetime.datetime | str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | BillingStats | Error]:
    """Credits spent and granted (staff)

     Credits spent (charges less refunds) in total, by operation kind, by tier and by user (top 20);
    platform spend on editions; accounts by tier.

    Changes: nothing.

    Who may call it: staff members, with a personal API token (a session is answered 401, another user's
    token 403).

    Args:
        since (datetime.datetime | str | Unset):
        until (datetime.datetime | str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | BillingStats | Error]
    """

    kwargs = _get_kwargs(
        since=since,
        until=until,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    since: datetime.datetime | str | Unset = UNSET,
    until: datetime.datetime | str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | BillingStats | Error | None:
    """Credits spent and granted (staff)

     Credits spent (charges less refunds) in total, by operation kind, by tier and by user (top 20);
    platform spend on editions; accounts by tier.

    Changes: nothing.

    Who may call it: staff members, with a personal API token (a session is answered 401, another user's
    token 403).

    Args:
        since (datetime.datetime | str | Unset):
        until (datetime.datetime | str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | BillingStats | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            since=since,
            until=until,
            if_none_match=if_none_match,
        )
    ).parsed
