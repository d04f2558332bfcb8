import datetime
from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.schedule_preview import SchedulePreview
from ...models.timezone_enum import TimezoneEnum
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    after: datetime.datetime | Unset = UNSET,
    count: int | Unset = 5,
    cron: str,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    json_after: str | Unset = UNSET
    if not isinstance(after, Unset):
        json_after = after.isoformat()
    params["after"] = json_after

    params["count"] = count

    params["cron"] = cron

    json_timezone: str | Unset = UNSET
    if not isinstance(timezone, Unset):
        json_timezone = timezone.value

    params["timezone"] = json_timezone

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/schedule/preview",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | SchedulePreview | None:
    if response.status_code == 200:
        response_200 = SchedulePreview.from_dict(response.json())

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
) -> Response[Any | Error | SchedulePreview]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    after: datetime.datetime | Unset = UNSET,
    count: int | Unset = 5,
    cron: str,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | SchedulePreview]:
    """Preview a cron schedule

     The next runs of a cron schedule in a time zone, and the schedule in plain words.

    Changes: nothing.

    Who may call it: anyone; credentials are read when sent.

    Args:
        after (datetime.datetime | Unset):
        count (int | Unset):  Default: 5.
        cron (str):
        timezone (TimezoneEnum | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | SchedulePreview]
    """

    kwargs = _get_kwargs(
        after=after,
        count=count,
        cron=cron,
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
    after: datetime.datetime | Unset = UNSET,
    count: int | Unset = 5,
    cron: str,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | SchedulePreview | None:
    """Preview a cron schedule

     The next runs of a cron schedule in a time zone, and the schedule in plain words.

    Changes: nothing.

    Who may call it: anyone; credentials are read when sent.

    Args:
        after (datetime.datetime | Unset):
        count (int | Unset):  Default: 5.
        cron (str):
        timezone (TimezoneEnum | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | SchedulePreview
    """

    return sync_detailed(
        client=client,
        after=after,
        count=count,
        cron=cron,
        timezone=timezone,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    after: datetime.datetime | Unset = UNSET,
    count: int | Unset = 5,
    cron: str,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | SchedulePreview]:
    """Preview a cron schedule

     The next runs of a cron schedule in a time zone, and the schedule in plain words.

    Changes: nothing.

    Who may call it: anyone; credentials are read when sent.

    Args:
        after (datetime.datetime | Unset):
        count (int | Unset):  Default: 5.
        cron (str):
        timezone (TimezoneEnum | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | SchedulePreview]
    """

    kwargs = _get_kwargs(
        after=after,
        count=count,
        cron=cron,
        timezone=timezone,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    after: datetime.datetime | Unset = UNSET,
    count: int | Unset = 5,
    cron: str,
    timezone: TimezoneEnum | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | SchedulePreview | None:
    """Preview a cron schedule

     The next runs of a cron schedule in a time zone, and the schedule in plain words.

    Changes: nothing.

    Who may call it: anyone; credentials are read when sent.

    Args:
        after (datetime.datetime | Unset):
        count (int | Unset):  Default: 5.
        cron (str):
        timezone (TimezoneEnum | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | SchedulePreview
    """

    return (
        await asyncio_detailed(
            client=client,
            after=after,
            count=count,
            cron=cron,
            timezone=timezone,
            if_none_match=if_none_match,
        )
    ).parsed
