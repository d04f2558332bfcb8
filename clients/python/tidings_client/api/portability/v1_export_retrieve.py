from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.tidings_export_version_1 import TidingsExportVersion1
from ...models.transfer_scope_enum import TransferScopeEnum
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    scope: TransferScopeEnum | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_scope: str | Unset = UNSET
    if not isinstance(scope, Unset):
        json_scope = scope.value

    params["scope"] = json_scope

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/export",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | TidingsExportVersion1 | None:
    if response.status_code == 200:
        response_200 = TidingsExportVersion1.from_dict(response.json())

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
) -> Response[Error | TidingsExportVersion1]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    scope: TransferScopeEnum | Unset = UNSET,
) -> Response[Error | TidingsExportVersion1]:
    """Export your data

     Everything of yours as one JSON document: preferences, sources, subscriptions, runs with their
    items, and what you read, saved or marked not interesting. Streamed, so any size of account
    downloads in constant memory.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Args:
        scope (TransferScopeEnum | Unset): * `saved` - Saved items only
            * `saved_recent` - Saved items and recent briefs
            * `everything` - Everything

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TidingsExportVersion1]
    """

    kwargs = _get_kwargs(
        scope=scope,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    scope: TransferScopeEnum | Unset = UNSET,
) -> Error | TidingsExportVersion1 | None:
    """Export your data

     Everything of yours as one JSON document: preferences, sources, subscriptions, runs with their
    items, and what you read, saved or marked not interesting. Streamed, so any size of account
    downloads in constant memory.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Args:
        scope (TransferScopeEnum | Unset): * `saved` - Saved items only
            * `saved_recent` - Saved items and recent briefs
            * `everything` - Everything

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TidingsExportVersion1
    """

    return sync_detailed(
        client=client,
        scope=scope,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    scope: TransferScopeEnum | Unset = UNSET,
) -> Response[Error | TidingsExportVersion1]:
    """Export your data

     Everything of yours as one JSON document: preferences, sources, subscriptions, runs with their
    items, and what you read, saved or marked not interesting. Streamed, so any size of account
    downloads in constant memory.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Args:
        scope (TransferScopeEnum | Unset): * `saved` - Saved items only
            * `saved_recent` - Saved items and recent briefs
            * `everything` - Everything

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TidingsExportVersion1]
    """

    kwargs = _get_kwargs(
        scope=scope,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    scope: TransferScopeEnum | Unset = UNSET,
) -> Error | TidingsExportVersion1 | None:
    """Export your data

     Everything of yours as one JSON document: preferences, sources, subscriptions, runs with their
    items, and what you read, saved or marked not interesting. Streamed, so any size of account
    downloads in constant memory.

    Changes: nothing.

    Who may call it: you, with a personal API token (`write` or `read`) or a signed-in session; only
    your own things are ever answered (others' are 404).

    Args:
        scope (TransferScopeEnum | Unset): * `saved` - Saved items only
            * `saved_recent` - Saved items and recent briefs
            * `everything` - Everything

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TidingsExportVersion1
    """

    return (
        await asyncio_detailed(
            client=client,
            scope=scope,
        )
    ).parsed
