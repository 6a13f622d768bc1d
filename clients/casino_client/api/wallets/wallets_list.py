from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.paginated_wallet_output_list import PaginatedWalletOutputList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    currency: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    player: float | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["currency"] = currency

    params["cursor"] = cursor

    params["page_size"] = page_size

    params["player"] = player

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/wallets/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedWalletOutputList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedWalletOutputList.from_dict(response.json())

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
) -> Response[PaginatedWalletOutputList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    currency: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    player: float | Unset = UNSET,
) -> Response[PaginatedWalletOutputList | Problem]:
    """List wallets

     Player wallets, one per player and currency. Opening one that exists returns it (200).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Args:
        currency (str | Unset):
        cursor (str | Unset):
        page_size (int | Unset):
        player (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedWalletOutputList | Problem]
    """

    kwargs = _get_kwargs(
        currency=currency,
        cursor=cursor,
        page_size=page_size,
        player=player,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    currency: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    player: float | Unset = UNSET,
) -> PaginatedWalletOutputList | Problem | None:
    """List wallets

     Player wallets, one per player and currency. Opening one that exists returns it (200).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Args:
        currency (str | Unset):
        cursor (str | Unset):
        page_size (int | Unset):
        player (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedWalletOutputList | Problem
    """

    return sync_detailed(
        client=client,
        currency=currency,
        cursor=cursor,
        page_size=page_size,
        player=player,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    currency: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    player: float | Unset = UNSET,
) -> Response[PaginatedWalletOutputList | Problem]:
    """List wallets

     Player wallets, one per player and currency. Opening one that exists returns it (200).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Args:
        currency (str | Unset):
        cursor (str | Unset):
        page_size (int | Unset):
        player (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedWalletOutputList | Problem]
    """

    kwargs = _get_kwargs(
        currency=currency,
        cursor=cursor,
        page_size=page_size,
        player=player,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    currency: str | Unset = UNSET,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    player: float | Unset = UNSET,
) -> PaginatedWalletOutputList | Problem | None:
    """List wallets

     Player wallets, one per player and currency. Opening one that exists returns it (200).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Args:
        currency (str | Unset):
        cursor (str | Unset):
        page_size (int | Unset):
        player (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedWalletOutputList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            currency=currency,
            cursor=cursor,
            page_size=page_size,
            player=player,
        )
    ).parsed
