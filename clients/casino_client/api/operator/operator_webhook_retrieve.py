from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.own_webhook import OwnWebhook
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/operator/webhook/",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> OwnWebhook | Problem | None:
    if response.status_code == 200:
        response_200 = OwnWebhook.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[OwnWebhook | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[OwnWebhook | Problem]:
    """Get operator webhook

     An operator's API key: its own webhook URL, subscribed event types and the state of its
    circuit breaker; PUT sets the URL ("" for the events feed only) and event types, and
    rotates the signing secret (shown once in the response; the previous one keeps signing
    alongside for 24 hours) unless ``rotate_secret`` is false. Refused targets
    (ledger/egress.py) are a 400 naming ``webhook_url``.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OwnWebhook | Problem]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> OwnWebhook | Problem | None:
    """Get operator webhook

     An operator's API key: its own webhook URL, subscribed event types and the state of its
    circuit breaker; PUT sets the URL ("" for the events feed only) and event types, and
    rotates the signing secret (shown once in the response; the previous one keeps signing
    alongside for 24 hours) unless ``rotate_secret`` is false. Refused targets
    (ledger/egress.py) are a 400 naming ``webhook_url``.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OwnWebhook | Problem
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[OwnWebhook | Problem]:
    """Get operator webhook

     An operator's API key: its own webhook URL, subscribed event types and the state of its
    circuit breaker; PUT sets the URL ("" for the events feed only) and event types, and
    rotates the signing secret (shown once in the response; the previous one keeps signing
    alongside for 24 hours) unless ``rotate_secret`` is false. Refused targets
    (ledger/egress.py) are a 400 naming ``webhook_url``.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OwnWebhook | Problem]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> OwnWebhook | Problem | None:
    """Get operator webhook

     An operator's API key: its own webhook URL, subscribed event types and the state of its
    circuit breaker; PUT sets the URL ("" for the events feed only) and event types, and
    rotates the signing secret (shown once in the response; the previous one keeps signing
    alongside for 24 hours) unless ``rotate_secret`` is false. Refused targets
    (ledger/egress.py) are a 400 naming ``webhook_url``.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OwnWebhook | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
