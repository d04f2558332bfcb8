from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.import_report import ImportReport
from ...models.opml_upload_request import OPMLUploadRequest
from ...types import UNSET, File, Response, Unset


def _get_kwargs(
    *,
    body: OPMLUploadRequest | File | File | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/sources/opml",
    }

    if isinstance(body, OPMLUploadRequest):
        if not isinstance(body, Unset):
            _kwargs["files"] = body.to_multipart()

        headers["Content-Type"] = "multipart/form-data; boundary=+++"
    if isinstance(body, File):
        if not isinstance(body, Unset):
            _kwargs["content"] = body.payload
        headers["Content-Type"] = "text/x-opml"
    if isinstance(body, File):
        if not isinstance(body, Unset):
            _kwargs["content"] = body.payload
        headers["Content-Type"] = "application/xml"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ImportReport | None:
    if response.status_code == 200:
        response_200 = ImportReport.from_dict(response.json())

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
) -> Response[Error | ImportReport]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: OPMLUploadRequest | File | File | Unset = UNSET,
) -> Response[Error | ImportReport]:
    """Import feeds from OPML

     Import an OPML file (a multipart `file` field, or the document as the request body). Nothing is
    fetched during the request: new feeds are due at once and the next refresh tick fetches them. A
    refused file changes nothing.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (OPMLUploadRequest | Unset):
        body (File | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ImportReport]
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
    body: OPMLUploadRequest | File | File | Unset = UNSET,
) -> Error | ImportReport | None:
    """Import feeds from OPML

     Import an OPML file (a multipart `file` field, or the document as the request body). Nothing is
    fetched during the request: new feeds are due at once and the next refresh tick fetches them. A
    refused file changes nothing.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (OPMLUploadRequest | Unset):
        body (File | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ImportReport
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: OPMLUploadRequest | File | File | Unset = UNSET,
) -> Response[Error | ImportReport]:
    """Import feeds from OPML

     Import an OPML file (a multipart `file` field, or the document as the request body). Nothing is
    fetched during the request: new feeds are due at once and the next refresh tick fetches them. A
    refused file changes nothing.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (OPMLUploadRequest | Unset):
        body (File | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ImportReport]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: OPMLUploadRequest | File | File | Unset = UNSET,
) -> Error | ImportReport | None:
    """Import feeds from OPML

     Import an OPML file (a multipart `file` field, or the document as the request body). Nothing is
    fetched during the request: new feeds are due at once and the next refresh tick fetches them. A
    refused file changes nothing.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (OPMLUploadRequest | Unset):
        body (File | Unset):
        body (File | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ImportReport
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
