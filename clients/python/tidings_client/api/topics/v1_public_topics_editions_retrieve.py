from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.edition import Edition
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    slug: str,
    edition_id: int,
    *,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/public/topics/{slug}/editions/{edition_id}".format(
            slug=quote(str(slug), safe=""),
            edition_id=quote(str(edition_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Edition | Error | None:
    if response.status_code == 200:
        response_200 = Edition.from_dict(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

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
) -> Response[Any | Edition | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    slug: str,
    edition_id: int,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Edition | Error]:
    """Read a topic's edition

     One edition of a public topic: its narrative and items, as its page shows them.

    Changes: nothing.

    Who may call it: anyone; no credentials are needed.

    Args:
        slug (str):
        edition_id (int):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Edition | Error]
    """

    kwargs = _get_kwargs(
        slug=slug,
        edition_id=edition_id,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    slug: str,
    edition_id: int,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,
) -> Any | Edition | Error | None:
    """Read a topic's edition

     One edition of a public topic: its narrative and items, as its page shows them.

    Changes: nothing.

    Who may call it: anyone; no credentials are needed.

    Args:
        slug (str):
        edition_id (int):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Edition | Error
    """

    return sync_detailed(
        slug=slug,
        edition_id=edition_id,
        client=client,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    slug: str,
    edition_id: int,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Edition | Error]:
    """Read a topic's edition

     One edition of a public topic: its narrative and items, as its page shows them.

    Changes: nothing.

    Who may call it: anyone; no credentials are needed.

    Args:
        slug (str):
        edition_id (int):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Edition | Error]
    """

    kwargs = _get_kwargs(
        slug=slug,
        edition_id=edition_id,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    slug: str,
    edition_id: int,
    *,
    client: AuthenticatedClient,
    if_none_match: str | Unset = UNSET,
) -> Any | Edition | Error | None:
    """Read a topic's edition

     One edition of a public topic: its narrative and items, as its page shows them.

    Changes: nothing.

    Who may call it: anyone; no credentials are needed.

    Args:
        slug (str):
        edition_id (int):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Edition | Error
    """

    return (
        await asyncio_detailed(
            slug=slug,
            edition_id=edition_id,
            client=client,
            if_none_match=if_none_match,
        )
    ).parsed
