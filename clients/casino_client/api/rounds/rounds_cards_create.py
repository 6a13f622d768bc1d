from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.card_posted_next import CardPostedNext
from ...models.problem import Problem
from ...models.round_cards_input_request import RoundCardsInputRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    body: RoundCardsInputRequest,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/rounds/{id}/cards/".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CardPostedNext | Problem | None:
    if response.status_code == 200:
        response_200 = CardPostedNext.from_dict(response.json())

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
) -> Response[CardPostedNext | Problem]:
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
    body: RoundCardsInputRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[CardPostedNext | Problem]:
    """Post the next card; the answer says where it went and what comes next

     The card reader posts the next card; the answer says which hand it went to (`target`,
    `forced` for a card the rules deal without a decision) and what the round wants next
    (`next`: another card and for which hand, a decision and whose, the banker, settlement).
    An impossible card or a count mismatch suspends the round (409 ``round-suspended``).

    **Allowed roles:** `dealer`, `dealer_device` (a device token). **Credential scope:** `pit` (staff
    sessions need none).

    Args:
        id (int):
        idempotency_key (str | Unset):
        body (RoundCardsInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CardPostedNext | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    body: RoundCardsInputRequest,
    idempotency_key: str | Unset = UNSET,
) -> CardPostedNext | Problem | None:
    """Post the next card; the answer says where it went and what comes next

     The card reader posts the next card; the answer says which hand it went to (`target`,
    `forced` for a card the rules deal without a decision) and what the round wants next
    (`next`: another card and for which hand, a decision and whose, the banker, settlement).
    An impossible card or a count mismatch suspends the round (409 ``round-suspended``).

    **Allowed roles:** `dealer`, `dealer_device` (a device token). **Credential scope:** `pit` (staff
    sessions need none).

    Args:
        id (int):
        idempotency_key (str | Unset):
        body (RoundCardsInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CardPostedNext | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    body: RoundCardsInputRequest,
    idempotency_key: str | Unset = UNSET,
) -> Response[CardPostedNext | Problem]:
    """Post the next card; the answer says where it went and what comes next

     The card reader posts the next card; the answer says which hand it went to (`target`,
    `forced` for a card the rules deal without a decision) and what the round wants next
    (`next`: another card and for which hand, a decision and whose, the banker, settlement).
    An impossible card or a count mismatch suspends the round (409 ``round-suspended``).

    **Allowed roles:** `dealer`, `dealer_device` (a device token). **Credential scope:** `pit` (staff
    sessions need none).

    Args:
        id (int):
        idempotency_key (str | Unset):
        body (RoundCardsInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CardPostedNext | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    body: RoundCardsInputRequest,
    idempotency_key: str | Unset = UNSET,
) -> CardPostedNext | Problem | None:
    """Post the next card; the answer says where it went and what comes next

     The card reader posts the next card; the answer says which hand it went to (`target`,
    `forced` for a card the rules deal without a decision) and what the round wants next
    (`next`: another card and for which hand, a decision and whose, the banker, settlement).
    An impossible card or a count mismatch suspends the round (409 ``round-suspended``).

    **Allowed roles:** `dealer`, `dealer_device` (a device token). **Credential scope:** `pit` (staff
    sessions need none).

    Args:
        id (int):
        idempotency_key (str | Unset):
        body (RoundCardsInputRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CardPostedNext | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
