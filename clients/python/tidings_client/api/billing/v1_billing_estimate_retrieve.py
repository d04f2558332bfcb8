from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.estimate import Estimate
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cron: str | Unset = "",
    source_ids: str | Unset = "",
    timezone: str | Unset = "UTC",
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cron"] = cron

    params["source_ids"] = source_ids

    params["timezone"] = timezone

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/billing/estimate",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Estimate | None:
    if response.status_code == 200:
        response_200 = Estimate.from_dict(response.json())

        return response_200

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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | Estimate]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cron: str | Unset = "",
    source_ids: str | Unset = "",
    timezone: str | Unset = "UTC",
) -> Response[Error | Estimate]:
    """Estimate a subscription's cost

     What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan.

    Args:
        cron (str | Unset):  Default: ''.
        source_ids (str | Unset):  Default: ''.
        timezone (str | Unset):  Default: 'UTC'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Estimate]
    """

    kwargs = _get_kwargs(
        cron=cron,
        source_ids=source_ids,
        timezone=timezone,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cron: str | Unset = "",
    source_ids: str | Unset = "",
    timezone: str | Unset = "UTC",
) -> Error | Estimate | None:
    """Estimate a subscription's cost

     What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan.

    Args:
        cron (str | Unset):  Default: ''.
        source_ids (str | Unset):  Default: ''.
        timezone (str | Unset):  Default: 'UTC'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Estimate
    """

    return sync_detailed(
        client=client,
        cron=cron,
        source_ids=source_ids,
        timezone=timezone,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cron: str | Unset = "",
    source_ids: str | Unset = "",
    timezone: str | Unset = "UTC",
) -> Response[Error | Estimate]:
    """Estimate a subscription's cost

     What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan.

    Args:
        cron (str | Unset):  Default: ''.
        source_ids (str | Unset):  Default: ''.
        timezone (str | Unset):  Default: 'UTC'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Estimate]
    """

    kwargs = _get_kwargs(
        cron=cron,
        source_ids=source_ids,
        timezone=timezone,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cron: str | Unset = "",
    source_ids: str | Unset = "",
    timezone: str | Unset = "UTC",
) -> Error | Estimate | None:
    """Estimate a subscription's cost

     What a subscription with this schedule and these sources would cost, before it is
    created: at most per run, about how many runs in the next 30 days, at most per month;
    and whether the schedule fits the plan.

    Args:
        cron (str | Unset):  Default: ''.
        source_ids (str | Unset):  Default: ''.
        timezone (str | Unset):  Default: 'UTC'.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Estimate
    """

    return (
        await asyncio_detailed(
            client=client,
            cron=cron,
            source_ids=source_ids,
            timezone=timezone,
        )
    ).parsed
