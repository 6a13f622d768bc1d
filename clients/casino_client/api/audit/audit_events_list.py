import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.paginated_audit_event_output_list import PaginatedAuditEventOutputList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    actor_id: str | Unset = UNSET,
    actor_kind: str | Unset = UNSET,
    bet: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    name: str | Unset = UNSET,
    name_prefix: str | Unset = UNSET,
    occurred_after: datetime.datetime | Unset = UNSET,
    occurred_before: datetime.datetime | Unset = UNSET,
    operator: int | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["actor_id"] = actor_id

    params["actor_kind"] = actor_kind

    params["bet"] = bet

    params["cursor"] = cursor

    params["name"] = name

    params["name_prefix"] = name_prefix

    json_occurred_after: str | Unset = UNSET
    if not isinstance(occurred_after, Unset):
        json_occurred_after = occurred_after.isoformat()
    params["occurred_after"] = json_occurred_after

    json_occurred_before: str | Unset = UNSET
    if not isinstance(occurred_before, Unset):
        json_occurred_before = occurred_before.isoformat()
    params["occurred_before"] = json_occurred_before

    params["operator"] = operator

    params["page_size"] = page_size

    params["round"] = round_

    params["table"] = table

    params["wallet"] = wallet

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit/events/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedAuditEventOutputList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedAuditEventOutputList.from_dict(response.json())

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
) -> Response[PaginatedAuditEventOutputList | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    actor_id: str | Unset = UNSET,
    actor_kind: str | Unset = UNSET,
    bet: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    name: str | Unset = UNSET,
    name_prefix: str | Unset = UNSET,
    occurred_after: datetime.datetime | Unset = UNSET,
    occurred_before: datetime.datetime | Unset = UNSET,
    operator: int | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: int | Unset = UNSET,
) -> Response[PaginatedAuditEventOutputList | Problem]:
    """List audit events

     Audit events, newest first; filter by name, actor, table, round, bet, wallet, time.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        actor_id (str | Unset):
        actor_kind (str | Unset):
        bet (int | Unset):
        cursor (str | Unset):
        name (str | Unset):
        name_prefix (str | Unset):
        occurred_after (datetime.datetime | Unset):
        occurred_before (datetime.datetime | Unset):
        operator (int | Unset):
        page_size (int | Unset):
        round_ (int | Unset):
        table (int | Unset):
        wallet (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedAuditEventOutputList | Problem]
    """

    kwargs = _get_kwargs(
        actor_id=actor_id,
        actor_kind=actor_kind,
        bet=bet,
        cursor=cursor,
        name=name,
        name_prefix=name_prefix,
        occurred_after=occurred_after,
        occurred_before=occurred_before,
        operator=operator,
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
    actor_id: str | Unset = UNSET,
    actor_kind: str | Unset = UNSET,
    bet: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    name: str | Unset = UNSET,
    name_prefix: str | Unset = UNSET,
    occurred_after: datetime.datetime | Unset = UNSET,
    occurred_before: datetime.datetime | Unset = UNSET,
    operator: int | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: int | Unset = UNSET,
) -> PaginatedAuditEventOutputList | Problem | None:
    """List audit events

     Audit events, newest first; filter by name, actor, table, round, bet, wallet, time.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        actor_id (str | Unset):
        actor_kind (str | Unset):
        bet (int | Unset):
        cursor (str | Unset):
        name (str | Unset):
        name_prefix (str | Unset):
        occurred_after (datetime.datetime | Unset):
        occurred_before (datetime.datetime | Unset):
        operator (int | Unset):
        page_size (int | Unset):
        round_ (int | Unset):
        table (int | Unset):
        wallet (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedAuditEventOutputList | Problem
    """

    return sync_detailed(
        client=client,
        actor_id=actor_id,
        actor_kind=actor_kind,
        bet=bet,
        cursor=cursor,
        name=name,
        name_prefix=name_prefix,
        occurred_after=occurred_after,
        occurred_before=occurred_before,
        operator=operator,
        page_size=page_size,
        round_=round_,
        table=table,
        wallet=wallet,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    actor_id: str | Unset = UNSET,
    actor_kind: str | Unset = UNSET,
    bet: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    name: str | Unset = UNSET,
    name_prefix: str | Unset = UNSET,
    occurred_after: datetime.datetime | Unset = UNSET,
    occurred_before: datetime.datetime | Unset = UNSET,
    operator: int | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: int | Unset = UNSET,
) -> Response[PaginatedAuditEventOutputList | Problem]:
    """List audit events

     Audit events, newest first; filter by name, actor, table, round, bet, wallet, time.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        actor_id (str | Unset):
        actor_kind (str | Unset):
        bet (int | Unset):
        cursor (str | Unset):
        name (str | Unset):
        name_prefix (str | Unset):
        occurred_after (datetime.datetime | Unset):
        occurred_before (datetime.datetime | Unset):
        operator (int | Unset):
        page_size (int | Unset):
        round_ (int | Unset):
        table (int | Unset):
        wallet (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedAuditEventOutputList | Problem]
    """

    kwargs = _get_kwargs(
        actor_id=actor_id,
        actor_kind=actor_kind,
        bet=bet,
        cursor=cursor,
        name=name,
        name_prefix=name_prefix,
        occurred_after=occurred_after,
        occurred_before=occurred_before,
        operator=operator,
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
    actor_id: str | Unset = UNSET,
    actor_kind: str | Unset = UNSET,
    bet: int | Unset = UNSET,
    cursor: str | Unset = UNSET,
    name: str | Unset = UNSET,
    name_prefix: str | Unset = UNSET,
    occurred_after: datetime.datetime | Unset = UNSET,
    occurred_before: datetime.datetime | Unset = UNSET,
    operator: int | Unset = UNSET,
    page_size: int | Unset = UNSET,
    round_: int | Unset = UNSET,
    table: int | Unset = UNSET,
    wallet: int | Unset = UNSET,
) -> PaginatedAuditEventOutputList | Problem | None:
    """List audit events

     Audit events, newest first; filter by name, actor, table, round, bet, wallet, time.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        actor_id (str | Unset):
        actor_kind (str | Unset):
        bet (int | Unset):
        cursor (str | Unset):
        name (str | Unset):
        name_prefix (str | Unset):
        occurred_after (datetime.datetime | Unset):
        occurred_before (datetime.datetime | Unset):
        operator (int | Unset):
        page_size (int | Unset):
        round_ (int | Unset):
        table (int | Unset):
        wallet (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedAuditEventOutputList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            actor_id=actor_id,
            actor_kind=actor_kind,
            bet=bet,
            cursor=cursor,
            name=name,
            name_prefix=name_prefix,
            occurred_after=occurred_after,
            occurred_before=occurred_before,
            operator=operator,
            page_size=page_size,
            round_=round_,
            table=table,
            wallet=wallet,
        )
    ).parsed
