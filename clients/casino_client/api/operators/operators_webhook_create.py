from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.operator_webhook_input_request import OperatorWebhookInputRequest
from ...models.operator_webhook_output import OperatorWebhookOutput
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    id: int,
    *,
    body: OperatorWebhookInputRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/operators/{id}/webhook/".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> OperatorWebhookOutput | Problem | None:
    if response.status_code == 200:
        response_200 = OperatorWebhookOutput.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

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
) -> Response[OperatorWebhookOutput | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: OperatorWebhookInputRequest,
) -> Response[OperatorWebhookOutput | Problem]:
    """Operator: webhook

     Staff: an operator's webhook URL and event types; rotates the signing secret (shown
    once) unless ``rotate_secret`` is false. Refused targets (ledger/egress.py) are a 400
    naming ``url``.

    **Allowed roles:** `floor_supervisor`.

    Args:
        id (int):
        body (OperatorWebhookInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OperatorWebhookOutput | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    body: OperatorWebhookInputRequest,
) -> OperatorWebhookOutput | Problem | None:
    """Operator: webhook

     Staff: an operator's webhook URL and event types; rotates the signing secret (shown
    once) unless ``rotate_secret`` is false. Refused targets (ledger/egress.py) are a 400
    naming ``url``.

    **Allowed roles:** `floor_supervisor`.

    Args:
        id (int):
        body (OperatorWebhookInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OperatorWebhookOutput | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: OperatorWebhookInputRequest,
) -> Response[OperatorWebhookOutput | Problem]:
    """Operator: webhook

     Staff: an operator's webhook URL and event types; rotates the signing secret (shown
    once) unless ``rotate_secret`` is false. Refused targets (ledger/egress.py) are a 400
    naming ``url``.

    **Allowed roles:** `floor_supervisor`.

    Args:
        id (int):
        body (OperatorWebhookInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OperatorWebhookOutput | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    body: OperatorWebhookInputRequest,
) -> OperatorWebhookOutput | Problem | None:
    """Operator: webhook

     Staff: an operator's webhook URL and event types; rotates the signing secret (shown
    once) unless ``rotate_secret`` is false. Refused targets (ledger/egress.py) are a 400
    naming ``url``.

    **Allowed roles:** `floor_supervisor`.

    Args:
        id (int):
        body (OperatorWebhookInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OperatorWebhookOutput | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
