from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.redeem_request import RedeemRequest
from ...models.tidings_export_version_1 import TidingsExportVersion1
from ...types import Response


def _get_kwargs(
    *,
    body: RedeemRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/transfer/redeem",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
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

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 406:
        response_406 = Error.from_dict(response.json())

        return response_406

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 410:
        response_410 = Error.from_dict(response.json())

        return response_410

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
    body: RedeemRequest,
) -> Response[Error | TidingsExportVersion1]:
    """Redeem a transfer code

     Spend a transfer code and receive the export (another Tidings calls this through its safe fetch
    client). 404: no such code; 410: used, revoked or expired.

    Who may call it: anyone; credentials are read when sent.

    Args:
        body (RedeemRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TidingsExportVersion1]
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
    body: RedeemRequest,
) -> Error | TidingsExportVersion1 | None:
    """Redeem a transfer code

     Spend a transfer code and receive the export (another Tidings calls this through its safe fetch
    client). 404: no such code; 410: used, revoked or expired.

    Who may call it: anyone; credentials are read when sent.

    Args:
        body (RedeemRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TidingsExportVersion1
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: RedeemRequest,
) -> Response[Error | TidingsExportVersion1]:
    """Redeem a transfer code

     Spend a transfer code and receive the export (another Tidings calls this through its safe fetch
    client). 404: no such code; 410: used, revoked or expired.

    Who may call it: anyone; credentials are read when sent.

    Args:
        body (RedeemRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | TidingsExportVersion1]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: RedeemRequest,
) -> Error | TidingsExportVersion1 | None:
    """Redeem a transfer code

     Spend a transfer code and receive the export (another Tidings calls this through its safe fetch
    client). 404: no such code; 410: used, revoked or expired.

    Who may call it: anyone; credentials are read when sent.

    Args:
        body (RedeemRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | TidingsExportVersion1
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
