from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_disputes_list_status import AuditDisputesListStatus
from ...models.paginated_dispute_output_list import PaginatedDisputeOutputList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: float | Unset = UNSET,
    status: AuditDisputesListStatus | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["page_size"] = page_size

    params["round"] = round_

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit/disputes/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedDisputeOutputList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedDisputeOutputList.from_dict(response.json())

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
) -> Response[PaginatedDisputeOutputList | Problem]:
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
    page_size: int | Unset = UNSET,
    round_: float | Unset = UNSET,
    status: AuditDisputesListStatus | Unset = UNSET,
) -> Response[PaginatedDisputeOutputList | Problem]:
    """List audit disputes

     Dispute cases, newest first (filter by ``status`` or ``round``); open one.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        cursor (str | Unset):
        page_size (int | Unset):
        round_ (float | Unset):
        status (AuditDisputesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedDisputeOutputList | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        page_size=page_size,
        round_=round_,
        status=status,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: float | Unset = UNSET,
    status: AuditDisputesListStatus | Unset = UNSET,
) -> PaginatedDisputeOutputList | Problem | None:
    """List audit disputes

     Dispute cases, newest first (filter by ``status`` or ``round``); open one.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        cursor (str | Unset):
        page_size (int | Unset):
        round_ (float | Unset):
        status (AuditDisputesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedDisputeOutputList | Problem
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        page_size=page_size,
        round_=round_,
        status=status,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: float | Unset = UNSET,
    status: AuditDisputesListStatus | Unset = UNSET,
) -> Response[PaginatedDisputeOutputList | Problem]:
    """List audit disputes

     Dispute cases, newest first (filter by ``status`` or ``round``); open one.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        cursor (str | Unset):
        page_size (int | Unset):
        round_ (float | Unset):
        status (AuditDisputesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedDisputeOutputList | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        page_size=page_size,
        round_=round_,
        status=status,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: float | Unset = UNSET,
    status: AuditDisputesListStatus | Unset = UNSET,
) -> PaginatedDisputeOutputList | Problem | None:
    """List audit disputes

     Dispute cases, newest first (filter by ``status`` or ``round``); open one.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        cursor (str | Unset):
        page_size (int | Unset):
        round_ (float | Unset):
        status (AuditDisputesListStatus | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedDisputeOutputList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            page_size=page_size,
            round_=round_,
            status=status,
        )
    ).parsed
