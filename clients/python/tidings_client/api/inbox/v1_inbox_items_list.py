import datetime
from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.inbox_item_page import InboxItemPage
from ...models.inbox_state import InboxState
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    limit: int | Unset = UNSET,
    q: str | Unset = UNSET,
    run: int | Unset = UNSET,
    state: InboxState | Unset = InboxState.ALL,
    subscription: int | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    json_from_: str | Unset = UNSET
    if not isinstance(from_, Unset):
        json_from_ = from_.isoformat()
    params["from"] = json_from_

    params["limit"] = limit

    params["q"] = q

    params["run"] = run

    json_state: str | Unset = UNSET
    if not isinstance(state, Unset):
        json_state = state.value

    params["state"] = json_state

    params["subscription"] = subscription

    json_to: str | Unset = UNSET
    if not isinstance(to, Unset):
        json_to = to.isoformat()
    params["to"] = json_to

    json_updated_since: str | Unset = UNSET
    if not isinstance(updated_since, Unset):
        json_updated_since = updated_since.isoformat()
    params["updated_since"] = json_updated_since

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/inbox/items",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Error | InboxItemPage | None:
    if response.status_code == 200:
        response_200 = InboxItemPage.from_dict(response.json())

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
) -> Response[Any | Error | InboxItemPage]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    limit: int | Unset = UNSET,
    q: str | Unset = UNSET,
    run: int | Unset = UNSET,
    state: InboxState | Unset = InboxState.ALL,
    subscription: int | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | InboxItemPage]:
    """List Inbox items

     Delivered items, newest brief first and in the brief's order inside it. Read forward with `next`
    (`previous` is always null). A `to` before `from` is 422 `empty_period`.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Pages: 30 per page by default, `limit` up to 100; follow `next` (a cursor) until it is null.

    Args:
        cursor (str | Unset):
        from_ (datetime.date | Unset):
        limit (int | Unset):
        q (str | Unset):
        run (int | Unset):
        state (InboxState | Unset):  Default: InboxState.ALL.
        subscription (int | Unset):
        to (datetime.date | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | InboxItemPage]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        from_=from_,
        limit=limit,
        q=q,
        run=run,
        state=state,
        subscription=subscription,
        to=to,
        updated_since=updated_since,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    limit: int | Unset = UNSET,
    q: str | Unset = UNSET,
    run: int | Unset = UNSET,
    state: InboxState | Unset = InboxState.ALL,
    subscription: int | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | InboxItemPage | None:
    """List Inbox items

     Delivered items, newest brief first and in the brief's order inside it. Read forward with `next`
    (`previous` is always null). A `to` before `from` is 422 `empty_period`.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Pages: 30 per page by default, `limit` up to 100; follow `next` (a cursor) until it is null.

    Args:
        cursor (str | Unset):
        from_ (datetime.date | Unset):
        limit (int | Unset):
        q (str | Unset):
        run (int | Unset):
        state (InboxState | Unset):  Default: InboxState.ALL.
        subscription (int | Unset):
        to (datetime.date | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | InboxItemPage
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        from_=from_,
        limit=limit,
        q=q,
        run=run,
        state=state,
        subscription=subscription,
        to=to,
        updated_since=updated_since,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    limit: int | Unset = UNSET,
    q: str | Unset = UNSET,
    run: int | Unset = UNSET,
    state: InboxState | Unset = InboxState.ALL,
    subscription: int | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Error | InboxItemPage]:
    """List Inbox items

     Delivered items, newest brief first and in the brief's order inside it. Read forward with `next`
    (`previous` is always null). A `to` before `from` is 422 `empty_period`.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Pages: 30 per page by default, `limit` up to 100; follow `next` (a cursor) until it is null.

    Args:
        cursor (str | Unset):
        from_ (datetime.date | Unset):
        limit (int | Unset):
        q (str | Unset):
        run (int | Unset):
        state (InboxState | Unset):  Default: InboxState.ALL.
        subscription (int | Unset):
        to (datetime.date | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Error | InboxItemPage]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        from_=from_,
        limit=limit,
        q=q,
        run=run,
        state=state,
        subscription=subscription,
        to=to,
        updated_since=updated_since,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    from_: datetime.date | Unset = UNSET,
    limit: int | Unset = UNSET,
    q: str | Unset = UNSET,
    run: int | Unset = UNSET,
    state: InboxState | Unset = InboxState.ALL,
    subscription: int | Unset = UNSET,
    to: datetime.date | Unset = UNSET,
    updated_since: datetime.datetime | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Error | InboxItemPage | None:
    """List Inbox items

     Delivered items, newest brief first and in the brief's order inside it. Read forward with `next`
    (`previous` is always null). A `to` before `from` is 422 `empty_period`.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Pages: 30 per page by default, `limit` up to 100; follow `next` (a cursor) until it is null.

    Args:
        cursor (str | Unset):
        from_ (datetime.date | Unset):
        limit (int | Unset):
        q (str | Unset):
        run (int | Unset):
        state (InboxState | Unset):  Default: InboxState.ALL.
        subscription (int | Unset):
        to (datetime.date | Unset):
        updated_since (datetime.datetime | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Error | InboxItemPage
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            from_=from_,
            limit=limit,
            q=q,
            run=run,
            state=state,
            subscription=subscription,
            to=to,
            updated_since=updated_since,
            if_none_match=if_none_match,
        )
    ).parsed
