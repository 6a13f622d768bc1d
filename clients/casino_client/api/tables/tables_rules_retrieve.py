from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.table_rules import TableRules
from ...types import Response


def _get_kwargs(
    id: int,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/tables/{id}/rules/".format(
            id=quote(str(id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | TableRules | None:
    if response.status_code == 200:
        response_200 = TableRules.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

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
) -> Response[Problem | TableRules]:
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
) -> Response[Problem | TableRules]:
    """The table's rules: documents, payouts, RTP, how to stake, timers

     The rule-set and payout-schedule versions the table's next round pins, with their
    documents (the engine's JSON, immutable once used); the pair's theoretical RTP (the
    stored figure, else the shipped preset figure, else null); how a bet is staked in this
    game (`staking.mode`: `stake_with_bet`, or `join_then_stake` where a box joins with
    stake 0 and stakes in a window after its first card); the decisions the game can ask
    for; the betting and decision timers and what the server does when they run out.
    Readable by every caller that may read the table.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TableRules]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
) -> Problem | TableRules | None:
    """The table's rules: documents, payouts, RTP, how to stake, timers

     The rule-set and payout-schedule versions the table's next round pins, with their
    documents (the engine's JSON, immutable once used); the pair's theoretical RTP (the
    stored figure, else the shipped preset figure, else null); how a bet is staked in this
    game (`staking.mode`: `stake_with_bet`, or `join_then_stake` where a box joins with
    stake 0 and stakes in a window after its first card); the decisions the game can ask
    for; the betting and decision timers and what the server does when they run out.
    Readable by every caller that may read the table.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TableRules
    """

    return sync_detailed(
        id=id,
        client=client,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
) -> Response[Problem | TableRules]:
    """The table's rules: documents, payouts, RTP, how to stake, timers

     The rule-set and payout-schedule versions the table's next round pins, with their
    documents (the engine's JSON, immutable once used); the pair's theoretical RTP (the
    stored figure, else the shipped preset figure, else null); how a bet is staked in this
    game (`staking.mode`: `stake_with_bet`, or `join_then_stake` where a box joins with
    stake 0 and stakes in a window after its first card); the decisions the game can ask
    for; the betting and decision timers and what the server does when they run out.
    Readable by every caller that may read the table.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | TableRules]
    """

    kwargs = _get_kwargs(
        id=id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
) -> Problem | TableRules | None:
    """The table's rules: documents, payouts, RTP, how to stake, timers

     The rule-set and payout-schedule versions the table's next round pins, with their
    documents (the engine's JSON, immutable once used); the pair's theoretical RTP (the
    stored figure, else the shipped preset figure, else null); how a bet is staked in this
    game (`staking.mode`: `stake_with_bet`, or `join_then_stake` where a box joins with
    stake 0 and stakes in a window after its first card); the decisions the game can ask
    for; the betting and decision timers and what the server does when they run out.
    Readable by every caller that may read the table.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | TableRules
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
        )
    ).parsed
