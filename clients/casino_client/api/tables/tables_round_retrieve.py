from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.round_view import RoundView
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    player_id: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["player_id"] = player_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/tables/{id}/round/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | RoundView | None:
    if response.status_code == 200:
        response_200 = RoundView.from_dict(response.json())

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
) -> Response[Problem | RoundView]:
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
    player_id: int | Unset = UNSET,
) -> Response[Problem | RoundView]:
    """Table: round

     The table's current round as the table shows it; ``player_id`` adds that player's
    legal actions.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):
        player_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoundView]
    """

    kwargs = _get_kwargs(
        id=id,
        player_id=player_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    player_id: int | Unset = UNSET,
) -> Problem | RoundView | None:
    """Table: round

     The table's current round as the table shows it; ``player_id`` adds that player's
    legal actions.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):
        player_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoundView
    """

    return sync_detailed(
        id=id,
        client=client,
        player_id=player_id,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    player_id: int | Unset = UNSET,
) -> Response[Problem | RoundView]:
    """Table: round

     The table's current round as the table shows it; ``player_id`` adds that player's
    legal actions.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):
        player_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | RoundView]
    """

    kwargs = _get_kwargs(
        id=id,
        player_id=player_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    player_id: int | Unset = UNSET,
) -> Problem | RoundView | None:
    """Table: round

     The table's current round as the table shows it; ``player_id`` adds that player's
    legal actions.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):
        player_id (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | RoundView
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            player_id=player_id,
        )
    ).parsed
