import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.table_accounting_output import TableAccountingOutput
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    currency: str | Unset = UNSET,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    dealer: int | Unset = UNSET,
    group_by: str | Unset = UNSET,
    operator: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["currency"] = currency

    json_date_from: str | Unset = UNSET
    if not isinstance(date_from, Unset):
        json_date_from = date_from.isoformat()
    params["date_from"] = json_date_from

    json_date_to: str | Unset = UNSET
    if not isinstance(date_to, Unset):
        json_date_to = date_to.isoformat()
    params["date_to"] = json_date_to

    params["dealer"] = dealer

    params["group_by"] = group_by

    params["operator"] = operator

    params["shift"] = shift

    params["table"] = table

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/table-accounting/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | list[TableAccountingOutput] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = TableAccountingOutput.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[Problem | list[TableAccountingOutput]]:
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
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    dealer: int | Unset = UNSET,
    group_by: str | Unset = UNSET,
    operator: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> Response[Problem | list[TableAccountingOutput]]:
    """List table accounting

     Handle, payouts, bonuses, win and hold % grouped by table, operator, day, shift, dealer.

    Computed from the legs of player wallets at tables, so it reconciles exactly with the
    ledger. Days and shifts are each casino's gaming days and shifts (its time zone and shift
    plan, as in the reports): `date_from`/`date_to` are gaming days, `shift` keeps one shift. A
    row carries the dimensions it is grouped by, its currency and the figures. An operator's
    key sees its own players' play only.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`, `operator_integration` (an operator's
    API key). **Credential scope:** `read` (staff sessions need none).

    Args:
        currency (str | Unset):
        date_from (datetime.date | Unset):
        date_to (datetime.date | Unset):
        dealer (int | Unset):
        group_by (str | Unset):
        operator (int | Unset):
        shift (str | Unset):
        table (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[TableAccountingOutput]]
    """

    kwargs = _get_kwargs(
        currency=currency,
        date_from=date_from,
        date_to=date_to,
        dealer=dealer,
        group_by=group_by,
        operator=operator,
        shift=shift,
        table=table,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    currency: str | Unset = UNSET,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    dealer: int | Unset = UNSET,
    group_by: str | Unset = UNSET,
    operator: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> Problem | list[TableAccountingOutput] | None:
    """List table accounting

     Handle, payouts, bonuses, win and hold % grouped by table, operator, day, shift, dealer.

    Computed from the legs of player wallets at tables, so it reconciles exactly with the
    ledger. Days and shifts are each casino's gaming days and shifts (its time zone and shift
    plan, as in the reports): `date_from`/`date_to` are gaming days, `shift` keeps one shift. A
    row carries the dimensions it is grouped by, its currency and the figures. An operator's
    key sees its own players' play only.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`, `operator_integration` (an operator's
    API key). **Credential scope:** `read` (staff sessions need none).

    Args:
        currency (str | Unset):
        date_from (datetime.date | Unset):
        date_to (datetime.date | Unset):
        dealer (int | Unset):
        group_by (str | Unset):
        operator (int | Unset):
        shift (str | Unset):
        table (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[TableAccountingOutput]
    """

    return sync_detailed(
        client=client,
        currency=currency,
        date_from=date_from,
        date_to=date_to,
        dealer=dealer,
        group_by=group_by,
        operator=operator,
        shift=shift,
        table=table,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    currency: str | Unset = UNSET,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    dealer: int | Unset = UNSET,
    group_by: str | Unset = UNSET,
    operator: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> Response[Problem | list[TableAccountingOutput]]:
    """List table accounting

     Handle, payouts, bonuses, win and hold % grouped by table, operator, day, shift, dealer.

    Computed from the legs of player wallets at tables, so it reconciles exactly with the
    ledger. Days and shifts are each casino's gaming days and shifts (its time zone and shift
    plan, as in the reports): `date_from`/`date_to` are gaming days, `shift` keeps one shift. A
    row carries the dimensions it is grouped by, its currency and the figures. An operator's
    key sees its own players' play only.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`, `operator_integration` (an operator's
    API key). **Credential scope:** `read` (staff sessions need none).

    Args:
        currency (str | Unset):
        date_from (datetime.date | Unset):
        date_to (datetime.date | Unset):
        dealer (int | Unset):
        group_by (str | Unset):
        operator (int | Unset):
        shift (str | Unset):
        table (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | list[TableAccountingOutput]]
    """

    kwargs = _get_kwargs(
        currency=currency,
        date_from=date_from,
        date_to=date_to,
        dealer=dealer,
        group_by=group_by,
        operator=operator,
        shift=shift,
        table=table,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    currency: str | Unset = UNSET,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    dealer: int | Unset = UNSET,
    group_by: str | Unset = UNSET,
    operator: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> Problem | list[TableAccountingOutput] | None:
    """List table accounting

     Handle, payouts, bonuses, win and hold % grouped by table, operator, day, shift, dealer.

    Computed from the legs of player wallets at tables, so it reconciles exactly with the
    ledger. Days and shifts are each casino's gaming days and shifts (its time zone and shift
    plan, as in the reports): `date_from`/`date_to` are gaming days, `shift` keeps one shift. A
    row carries the dimensions it is grouped by, its currency and the figures. An operator's
    key sees its own players' play only.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`, `operator_integration` (an operator's
    API key). **Credential scope:** `read` (staff sessions need none).

    Args:
        currency (str | Unset):
        date_from (datetime.date | Unset):
        date_to (datetime.date | Unset):
        dealer (int | Unset):
        group_by (str | Unset):
        operator (int | Unset):
        shift (str | Unset):
        table (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | list[TableAccountingOutput]
    """

    return (
        await asyncio_detailed(
            client=client,
            currency=currency,
            date_from=date_from,
            date_to=date_to,
            dealer=dealer,
            group_by=group_by,
            operator=operator,
            shift=shift,
            table=table,
        )
    ).parsed
