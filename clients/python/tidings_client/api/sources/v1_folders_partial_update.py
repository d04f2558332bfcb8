from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.folder import Folder
from ...models.patched_folder_input_request import PatchedFolderInputRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    folder_id: int,
    *,
    body: PatchedFolderInputRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/folders/{folder_id}".format(
            folder_id=quote(str(folder_id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Folder | None:
    if response.status_code == 200:
        response_200 = Folder.from_dict(response.json())

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
) -> Response[Error | Folder]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    folder_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedFolderInputRequest | Unset = UNSET,
) -> Response[Error | Folder]:
    """Rename a folder

     Rename a folder (the name must stay unique among yours). Changes: the folder's name.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        folder_id (int):
        body (PatchedFolderInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Folder]
    """

    kwargs = _get_kwargs(
        folder_id=folder_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    folder_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedFolderInputRequest | Unset = UNSET,
) -> Error | Folder | None:
    """Rename a folder

     Rename a folder (the name must stay unique among yours). Changes: the folder's name.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        folder_id (int):
        body (PatchedFolderInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Folder
    """

    return sync_detailed(
        folder_id=folder_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    folder_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedFolderInputRequest | Unset = UNSET,
) -> Response[Error | Folder]:
    """Rename a folder

     Rename a folder (the name must stay unique among yours). Changes: the folder's name.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        folder_id (int):
        body (PatchedFolderInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Folder]
    """

    kwargs = _get_kwargs(
        folder_id=folder_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    folder_id: int,
    *,
    client: AuthenticatedClient,
    body: PatchedFolderInputRequest | Unset = UNSET,
) -> Error | Folder | None:
    """Rename a folder

     Rename a folder (the name must stay unique among yours). Changes: the folder's name.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        folder_id (int):
        body (PatchedFolderInputRequest | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Folder
    """

    return (
        await asyncio_detailed(
            folder_id=folder_id,
            client=client,
            body=body,
        )
    ).parsed
