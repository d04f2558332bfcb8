from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.export_document_request import ExportDocumentRequest
from ...models.import_job import ImportJob
from ...types import Response


def _get_kwargs(
    *,
    body: ExportDocumentRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/import",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ImportJob | None:
    if response.status_code == 202:
        response_202 = ImportJob.from_dict(response.json())

        return response_202

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
) -> Response[Error | ImportJob]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ExportDocumentRequest,
) -> Response[Error | ImportJob]:
    """Import an export

     Queue the import of a `tidings-export@1` document (at most IMPORT_MAX_BYTES, 100 MB by default: 413
    beyond) and answer at once with its job; read the job at `Location` until `status` is `done` (with
    `summary`) or `failed` (with `error`: the whole document is checked; a refused document changes
    nothing). Its top level is checked at once: a body that is not one JSON object, another `format`
    (`unsupported_format`), or a member missing, unknown or of the wrong kind is a 400 naming it, and no
    job is made. One import at a time per account (409 `import_in_progress`). Importing the same
    document again changes nothing; imported runs are history — never run, delivered or charged.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (ExportDocumentRequest): The document's top level, for the schema, and checked at
            once by `POST /import` (a 400
            naming the member: an unknown one, a missing one, a list that is not a list); every part
            is
            described field by field in inbox/portability/export.schema.json, which the import job
            checks it against.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ImportJob]
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
    body: ExportDocumentRequest,
) -> Error | ImportJob | None:
    """Import an export

     Queue the import of a `tidings-export@1` document (at most IMPORT_MAX_BYTES, 100 MB by default: 413
    beyond) and answer at once with its job; read the job at `Location` until `status` is `done` (with
    `summary`) or `failed` (with `error`: the whole document is checked; a refused document changes
    nothing). Its top level is checked at once: a body that is not one JSON object, another `format`
    (`unsupported_format`), or a member missing, unknown or of the wrong kind is a 400 naming it, and no
    job is made. One import at a time per account (409 `import_in_progress`). Importing the same
    document again changes nothing; imported runs are history — never run, delivered or charged.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (ExportDocumentRequest): The document's top level, for the schema, and checked at
            once by `POST /import` (a 400
            naming the member: an unknown one, a missing one, a list that is not a list); every part
            is
            described field by field in inbox/portability/export.schema.json, which the import job
            checks it against.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ImportJob
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: ExportDocumentRequest,
) -> Response[Error | ImportJob]:
    """Import an export

     Queue the import of a `tidings-export@1` document (at most IMPORT_MAX_BYTES, 100 MB by default: 413
    beyond) and answer at once with its job; read the job at `Location` until `status` is `done` (with
    `summary`) or `failed` (with `error`: the whole document is checked; a refused document changes
    nothing). Its top level is checked at once: a body that is not one JSON object, another `format`
    (`unsupported_format`), or a member missing, unknown or of the wrong kind is a 400 naming it, and no
    job is made. One import at a time per account (409 `import_in_progress`). Importing the same
    document again changes nothing; imported runs are history — never run, delivered or charged.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (ExportDocumentRequest): The document's top level, for the schema, and checked at
            once by `POST /import` (a 400
            naming the member: an unknown one, a missing one, a list that is not a list); every part
            is
            described field by field in inbox/portability/export.schema.json, which the import job
            checks it against.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ImportJob]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: ExportDocumentRequest,
) -> Error | ImportJob | None:
    """Import an export

     Queue the import of a `tidings-export@1` document (at most IMPORT_MAX_BYTES, 100 MB by default: 413
    beyond) and answer at once with its job; read the job at `Location` until `status` is `done` (with
    `summary`) or `failed` (with `error`: the whole document is checked; a refused document changes
    nothing). Its top level is checked at once: a body that is not one JSON object, another `format`
    (`unsupported_format`), or a member missing, unknown or of the wrong kind is a 400 naming it, and no
    job is made. One import at a time per account (409 `import_in_progress`). Importing the same
    document again changes nothing; imported runs are history — never run, delivered or charged.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        body (ExportDocumentRequest): The document's top level, for the schema, and checked at
            once by `POST /import` (a 400
            naming the member: an unknown one, a missing one, a list that is not a list); every part
            is
            described field by field in inbox/portability/export.schema.json, which the import job
            checks it against.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ImportJob
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
