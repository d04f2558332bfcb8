from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_watch_input_request import ListWatchInputRequest
from ...models.watched_list import WatchedList
from ...types import Response


def _get_kwargs(
    *,
    body: ListWatchInputRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/sources/lists",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WatchedList | None:
    if response.status_code == 200:
        response_200 = WatchedList.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = WatchedList.from_dict(response.json())

        return response_201

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

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
) -> Response[Error | WatchedList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ListWatchInputRequest,
) -> Response[Error | WatchedList]:
    """Watch a listing page

     Fetch the page once, find its item links and start watching it. Links already on the page are the
    baseline; only links that appear later are news, told through `notify` (default: the Inbox) and
    checked every `check_interval_minutes` (default 60). Refused settings name their field (400; 422
    `invalid_combination` for email or push without the Inbox; 403 `tier_limit` for an interval below
    your plan's minimum).

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (ListWatchInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WatchedList]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: ListWatchInputRequest,
) -> Error | WatchedList | None:
    """Watch a listing page

     Fetch the page once, find its item links and start watching it. Links already on the page are the
    baseline; only links that appear later are news, told through `notify` (default: the Inbox) and
    checked every `check_interval_minutes` (default 60). Refused settings name their field (400; 422
    `invalid_combination` for email or push without the Inbox; 403 `tier_limit` for an interval below
    your plan's minimum).

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (ListWatchInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WatchedList
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ListWatchInputRequest,
) -> Response[Error | WatchedList]:
    """Watch a listing page

     Fetch the page once, find its item links and start watching it. Links already on the page are the
    baseline; only links that appear later are news, told through `notify` (default: the Inbox) and
    checked every `check_interval_minutes` (default 60). Refused settings name their field (400; 422
    `invalid_combination` for email or push without the Inbox; 403 `tier_limit` for an interval below
    your plan's minimum).

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (ListWatchInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WatchedList]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ListWatchInputRequest,
) -> Error | WatchedList | None:
    """Watch a listing page

     Fetch the page once, find its item links and start watching it. Links already on the page are the
    baseline; only links that appear later are news, told through `notify` (default: the Inbox) and
    checked every `check_interval_minutes` (default 60). Refused settings name their field (400; 422
    `invalid_combination` for email or push without the Inbox; 403 `tier_limit` for an interval below
    your plan's minimum).

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (ListWatchInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WatchedList
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
