from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.library_source import LibrarySource
from ...models.patched_move_source_request import PatchedMoveSourceRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    user_source_id: int,
    *,
    body: PatchedMoveSourceRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/sources/{user_source_id}".format(
            user_source_id=quote(str(user_source_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | LibrarySource | None:
    if response.status_code == 200:
        response_200 = LibrarySource.from_dict(response.json())

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
) -> Response[Error | LibrarySource]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_source_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedMoveSourceRequest | Unset = UNSET,
) -> Response[Error | LibrarySource]:
    """Move a source to a folder

     Move the source into one of your folders (`folder`: its id) or out of any (`null`). Without `folder`
    nothing changes (a PATCH changes what it names).

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        user_source_id (int):
        body (PatchedMoveSourceRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | LibrarySource]
    """

    kwargs = _get_kwargs(
        user_source_id=user_source_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_source_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedMoveSourceRequest | Unset = UNSET,
) -> Error | LibrarySource | None:
    """Move a source to a folder

     Move the source into one of your folders (`folder`: its id) or out of any (`null`). Without `folder`
    nothing changes (a PATCH changes what it names).

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        user_source_id (int):
        body (PatchedMoveSourceRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | LibrarySource
    """

    return sync_detailed(
        user_source_id=user_source_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    user_source_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedMoveSourceRequest | Unset = UNSET,
) -> Response[Error | LibrarySource]:
    """Move a source to a folder

     Move the source into one of your folders (`folder`: its id) or out of any (`null`). Without `folder`
    nothing changes (a PATCH changes what it names).

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        user_source_id (int):
        body (PatchedMoveSourceRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | LibrarySource]
    """

    kwargs = _get_kwargs(
        user_source_id=user_source_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_source_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedMoveSourceRequest | Unset = UNSET,
) -> Error | LibrarySource | None:
    """Move a source to a folder

     Move the source into one of your folders (`folder`: its id) or out of any (`null`). Without `folder`
    nothing changes (a PATCH changes what it names).

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        user_source_id (int):
        body (PatchedMoveSourceRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | LibrarySource
    """

    return (
        await asyncio_detailed(
            user_source_id=user_source_id,
            client=client,
            body=body,
        )
    ).parsed
