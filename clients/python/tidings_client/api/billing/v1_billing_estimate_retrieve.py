from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.estimate import Estimate
from ...models.timezone_enum import TimezoneEnum
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cron: str | Unset = UNSET,
    source_ids: str | Unset = UNSET,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    json_cron: str | Unset
    if isinstance(cron, Unset):
        json_cron = UNSET
    else:
        json_cron = cron
    params["cron"] = json_cron

    json_source_ids: str | Unset
    if isinstance(source_ids, Unset):
        json_source_ids = UNSET
    else:
        json_source_ids = source_ids
    params["source_ids"] = json_source_ids

    json_timezone: str | Unset = UNSET
    if not isinstance(timezone, Unset):
        json_timezone = timezone.value

    params["timezone"] = json_timezone

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/billing/estimate",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | Estimate | None:
    if response.status_code == 200:
        response_200 = Estimate.from_dict(response.json())

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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())

        return response_406

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Error | Estimate]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cron: str | Unset = UNSET,
    source_ids: str | Unset = UNSET,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | Estimate]:
    """Estimate a subscription's cost

     What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Args:
        cron (str | Unset):
        source_ids (str | Unset):
        timezone (TimezoneEnum | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | Estimate]
    """

    kwargs = _get_kwargs(
        cron=cron,
        source_ids=source_ids,
        timezone=timezone,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cron: str | Unset = UNSET,
    source_ids: str | Unset = UNSET,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | Estimate | None:
    """Estimate a subscription's cost

     What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Args:
        cron (str | Unset):
        source_ids (str | Unset):
        timezone (TimezoneEnum | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | Estimate
    """

    return sync_detailed(
        client=client,
        cron=cron,
        source_ids=source_ids,
        timezone=timezone,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cron: str | Unset = UNSET,
    source_ids: str | Unset = UNSET,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | Estimate]:
    """Estimate a subscription's cost

     What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Args:
        cron (str | Unset):
        source_ids (str | Unset):
        timezone (TimezoneEnum | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | Estimate]
    """

    kwargs = _get_kwargs(
        cron=cron,
        source_ids=source_ids,
        timezone=timezone,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cron: str | Unset = UNSET,
    source_ids: str | Unset = UNSET,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | Estimate | None:
    """Estimate a subscription's cost

     What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Args:
        cron (str | Unset):
        source_ids (str | Unset):
        timezone (TimezoneEnum | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | Estimate
    """

    return (
        await asyncio_detailed(
            client=client,
            cron=cron,
            source_ids=source_ids,
            timezone=timezone,
            if_none_match=if_none_match,
        )
    ).parsed
