from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.cache_clear_result import CacheClearResult
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    all_: bool | Unset = UNSET,
    before: Any | Unset = UNSET,
    expired: bool | Unset = UNSET,
    key: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["all"] = all_

    json_before: Any | Unset
    if isinstance(before, Unset):
        json_before = UNSET
    else:
        json_before = before
    params["before"] = json_before

    params["expired"] = expired

    params["key"] = key

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v1/admin/cache/entries",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CacheClearResult | Error | None:
    if response.status_code == 200:
        response_200 = CacheClearResult.from_dict(response.json())

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
) -> Response[CacheClearResult | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    all_: bool | Unset = UNSET,
    before: Any | Unset = UNSET,
    expired: bool | Unset = UNSET,
    key: str | Unset = UNSET,
) -> Response[CacheClearResult | Error]:
    """Clear combination cache entries (staff)

     Clear combination cache entries; exactly one of key, before, expired, all (none or several: 422
    `invalid_combination`, naming the second one or `scope`). The hit and miss counters are kept.

    Who may call it: staff members, with a personal API token (a session is answered 401, another user's
    token 403).

    Args:
        all_ (bool | Unset):
        before (Any | Unset):
        expired (bool | Unset):
        key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CacheClearResult | Error]
    """

    kwargs = _get_kwargs(
        all_=all_,
        before=before,
        expired=expired,
        key=key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    all_: bool | Unset = UNSET,
    before: Any | Unset = UNSET,
    expired: bool | Unset = UNSET,
    key: str | Unset = UNSET,
) -> CacheClearResult | Error | None:
    """Clear combination cache entries (staff)

     Clear combination cache entries; exactly one of key, before, expired, all (none or several: 422
    `invalid_combination`, naming the second one or `scope`). The hit and miss counters are kept.

    Who may call it: staff members, with a personal API token (a session is answered 401, another user's
    token 403).

    Args:
        all_ (bool | Unset):
        before (Any | Unset):
        expired (bool | Unset):
        key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CacheClearResult | Error
    """

    return sync_detailed(
        client=client,
        all_=all_,
        before=before,
        expired=expired,
        key=key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    all_: bool | Unset = UNSET,
    before: Any | Unset = UNSET,
    expired: bool | Unset = UNSET,
    key: str | Unset = UNSET,
) -> Response[CacheClearResult | Error]:
    """Clear combination cache entries (staff)

     Clear combination cache entries; exactly one of key, before, expired, all (none or several: 422
    `invalid_combination`, naming the second one or `scope`). The hit and miss counters are kept.

    Who may call it: staff members, with a personal API token (a session is answered 401, another user's
    token 403).

    Args:
        all_ (bool | Unset):
        before (Any | Unset):
        expired (bool | Unset):
        key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CacheClearResult | Error]
    """

    kwargs = _get_kwargs(
        all_=all_,
        before=before,
        expired=expired,
        key=key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    all_: bool | Unset = UNSET,
    before: Any | Unset = UNSET,
    expired: bool | Unset = UNSET,
    key: str | Unset = UNSET,
) -> CacheClearResult | Error | None:
    """Clear combination cache entries (staff)

     Clear combination cache entries; exactly one of key, before, expired, all (none or several: 422
    `invalid_combination`, naming the second one or `scope`). The hit and miss counters are kept.

    Who may call it: staff members, with a personal API token (a session is answered 401, another user's
    token 403).

    Args:
        all_ (bool | Unset):
        before (Any | Unset):
        expired (bool | Unset):
        key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CacheClearResult | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            all_=all_,
            before=before,
            expired=expired,
            key=key,
        )
    ).parsed
