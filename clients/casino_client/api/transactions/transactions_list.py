from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.paginated_transaction_output_list import PaginatedTransactionOutputList
from ...models.problem import Problem
from ...models.transactions_list_kind import TransactionsListKind
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    kind: TransactionsListKind | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: float | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    json_kind: str | Unset = UNSET
    if not isinstance(kind, Unset):
        json_kind = kind.value

    params["kind"] = json_kind

    params["page_size"] = page_size

    params["round"] = round_

    params["table"] = table

    params["wallet"] = wallet

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/transactions/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedTransactionOutputList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedTransactionOutputList.from_dict(response.json())

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
) -> Response[PaginatedTransactionOutputList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: TransactionsListKind | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: float | Unset = UNSET,
) -> Response[PaginatedTransactionOutputList | Problem]:
    """List transactions

     Transactions with their legs (an operator sees the legs on its own accounts only).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Args:
        cursor (str | Unset):
        kind (TransactionsListKind | Unset):
        page_size (int | Unset):
        round_ (int | Unset):
        table (int | Unset):
        wallet (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedTransactionOutputList | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        kind=kind,
        page_size=page_size,
        round_=round_,
        table=table,
        wallet=wallet,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: TransactionsListKind | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: float | Unset = UNSET,
) -> PaginatedTransactionOutputList | Problem | None:
    """List transactions

     Transactions with their legs (an operator sees the legs on its own accounts only).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Args:
        cursor (str | Unset):
        kind (TransactionsListKind | Unset):
        page_size (int | Unset):
        round_ (int | Unset):
        table (int | Unset):
        wallet (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedTransactionOutputList | Problem
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        kind=kind,
        page_size=page_size,
        round_=round_,
        table=table,
        wallet=wallet,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: TransactionsListKind | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: float | Unset = UNSET,
) -> Response[PaginatedTransactionOutputList | Problem]:
    """List transactions

     Transactions with their legs (an operator sees the legs on its own accounts only).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Args:
        cursor (str | Unset):
        kind (TransactionsListKind | Unset):
        page_size (int | Unset):
        round_ (int | Unset):
        table (int | Unset):
        wallet (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedTransactionOutputList | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        kind=kind,
        page_size=page_size,
        round_=round_,
        table=table,
        wallet=wallet,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    kind: TransactionsListKind | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: float | Unset = UNSET,
) -> PaginatedTransactionOutputList | Problem | None:
    """List transactions

     Transactions with their legs (an operator sees the legs on its own accounts only).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key). **Credential scope:** `read` (staff sessions need
    none).

    Args:
        cursor (str | Unset):
        kind (TransactionsListKind | Unset):
        page_size (int | Unset):
        round_ (int | Unset):
        table (int | Unset):
        wallet (float | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedTransactionOutputList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            kind=kind,
            page_size=page_size,
            round_=round_,
            table=table,
            wallet=wallet,
        )
    ).parsed
