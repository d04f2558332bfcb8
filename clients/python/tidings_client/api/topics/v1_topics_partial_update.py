from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.owned_topic import OwnedTopic
from ...models.patched_topic_changes_request import PatchedTopicChangesRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    slug: str,
    *,
    body: PatchedTopicChangesRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/topics/{slug}".format(
            slug=quote(str(slug), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | OwnedTopic | None:
    if response.status_code == 200:
        response_200 = OwnedTopic.from_dict(response.json())

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
) -> Response[Error | OwnedTopic]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    slug: str,
    *,
    client: AuthenticatedClient,
    body: PatchedTopicChangesRequest | Unset = UNSET,
) -> Response[Error | OwnedTopic]:
    """Change a topic

     Change a topic you published (title, description, slug, visibility, schedule); a field left out
    stays as it is. Changes: the topic.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        slug (str):
        body (PatchedTopicChangesRequest | Unset): What an owner may change on a topic (PATCH: any
            subset). Only types and sizes here; the
            rules and their messages are topics.publishing's, shared with the console.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OwnedTopic]
    """

    kwargs = _get_kwargs(
        slug=slug,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    slug: str,
    *,
    client: AuthenticatedClient,
    body: PatchedTopicChangesRequest | Unset = UNSET,
) -> Error | OwnedTopic | None:
    """Change a topic

     Change a topic you published (title, description, slug, visibility, schedule); a field left out
    stays as it is. Changes: the topic.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        slug (str):
        body (PatchedTopicChangesRequest | Unset): What an owner may change on a topic (PATCH: any
            subset). Only types and sizes here; the
            rules and their messages are topics.publishing's, shared with the console.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OwnedTopic
    """

    return sync_detailed(
        slug=slug,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    slug: str,
    *,
    client: AuthenticatedClient,
    body: PatchedTopicChangesRequest | Unset = UNSET,
) -> Response[Error | OwnedTopic]:
    """Change a topic

     Change a topic you published (title, description, slug, visibility, schedule); a field left out
    stays as it is. Changes: the topic.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        slug (str):
        body (PatchedTopicChangesRequest | Unset): What an owner may change on a topic (PATCH: any
            subset). Only types and sizes here; the
            rules and their messages are topics.publishing's, shared with the console.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | OwnedTopic]
    """

    kwargs = _get_kwargs(
        slug=slug,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    slug: str,
    *,
    client: AuthenticatedClient,
    body: PatchedTopicChangesRequest | Unset = UNSET,
) -> Error | OwnedTopic | None:
    """Change a topic

     Change a topic you published (title, description, slug, visibility, schedule); a field left out
    stays as it is. Changes: the topic.

    Who may call it: you, with a `write` token or a signed-in session (a `read` token is answered 403);
    only your own things can be changed (others' are 404).

    Args:
        slug (str):
        body (PatchedTopicChangesRequest | Unset): What an owner may change on a topic (PATCH: any
            subset). Only types and sizes here; the
            rules and their messages are topics.publishing's, shared with the console.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | OwnedTopic
    """

    return (
        await asyncio_detailed(
            slug=slug,
            client=client,
            body=body,
        )
    ).parsed
