import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.audit_reports_retrieve_grouping import AuditReportsRetrieveGrouping
from ...models.audit_reports_retrieve_kind import AuditReportsRetrieveKind
from ...models.problem import Problem
from ...models.report_output import ReportOutput
from ...types import UNSET, Response, Unset


def _get_kwargs(
    kind: AuditReportsRetrieveKind,
    *,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    grouping: AuditReportsRetrieveGrouping | Unset = UNSET,
    player: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_date_from: str | Unset = UNSET
    if not isinstance(date_from, Unset):
        json_date_from = date_from.isoformat()
    params["date_from"] = json_date_from

    json_date_to: str | Unset = UNSET
    if not isinstance(date_to, Unset):
        json_date_to = date_to.isoformat()
    params["date_to"] = json_date_to

    json_grouping: str | Unset = UNSET
    if not isinstance(grouping, Unset):
        json_grouping = grouping.value

    params["grouping"] = json_grouping

    params["player"] = player

    params["shift"] = shift

    params["table"] = table

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit/reports/{kind}/".format(
            kind=quote(str(kind), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | ReportOutput | None:
    if response.status_code == 200:
        response_200 = ReportOutput.from_dict(response.json())

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
) -> Response[Problem | ReportOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    kind: AuditReportsRetrieveKind,
    *,
    client: AuthenticatedClient,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    grouping: AuditReportsRetrieveGrouping | Unset = UNSET,
    player: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> Response[Problem | ReportOutput]:
    """Get report

     One report for a period: table-shift, dealer, player-statement, game-performance,
    exceptions or shoe-log. A parameter the report does not take is a 400 naming it; the
    response's ``parameters`` are the ones it applied.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        kind (AuditReportsRetrieveKind):
        date_from (datetime.date | Unset):
        date_to (datetime.date | Unset):
        grouping (AuditReportsRetrieveGrouping | Unset):
        player (int | Unset):
        shift (str | Unset):
        table (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReportOutput]
    """

    kwargs = _get_kwargs(
        kind=kind,
        date_from=date_from,
        date_to=date_to,
        grouping=grouping,
        player=player,
        shift=shift,
        table=table,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    kind: AuditReportsRetrieveKind,
    *,
    client: AuthenticatedClient,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    grouping: AuditReportsRetrieveGrouping | Unset = UNSET,
    player: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> Problem | ReportOutput | None:
    """Get report

     One report for a period: table-shift, dealer, player-statement, game-performance,
    exceptions or shoe-log. A parameter the report does not take is a 400 naming it; the
    response's ``parameters`` are the ones it applied.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        kind (AuditReportsRetrieveKind):
        date_from (datetime.date | Unset):
        date_to (datetime.date | Unset):
        grouping (AuditReportsRetrieveGrouping | Unset):
        player (int | Unset):
        shift (str | Unset):
        table (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReportOutput
    """

    return sync_detailed(
        kind=kind,
        client=client,
        date_from=date_from,
        date_to=date_to,
        grouping=grouping,
        player=player,
        shift=shift,
        table=table,
    ).parsed


async def asyncio_detailed(
    kind: AuditReportsRetrieveKind,
    *,
    client: AuthenticatedClient,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    grouping: AuditReportsRetrieveGrouping | Unset = UNSET,
    player: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> Response[Problem | ReportOutput]:
    """Get report

     One report for a period: table-shift, dealer, player-statement, game-performance,
    exceptions or shoe-log. A parameter the report does not take is a 400 naming it; the
    response's ``parameters`` are the ones it applied.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        kind (AuditReportsRetrieveKind):
        date_from (datetime.date | Unset):
        date_to (datetime.date | Unset):
        grouping (AuditReportsRetrieveGrouping | Unset):
        player (int | Unset):
        shift (str | Unset):
        table (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | ReportOutput]
    """

    kwargs = _get_kwargs(
        kind=kind,
        date_from=date_from,
        date_to=date_to,
        grouping=grouping,
        player=player,
        shift=shift,
        table=table,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    kind: AuditReportsRetrieveKind,
    *,
    client: AuthenticatedClient,
    date_from: datetime.date | Unset = UNSET,
    date_to: datetime.date | Unset = UNSET,
    grouping: AuditReportsRetrieveGrouping | Unset = UNSET,
    player: int | Unset = UNSET,
    shift: str | Unset = UNSET,
    table: int | Unset = UNSET,
) -> Problem | ReportOutput | None:
    """Get report

     One report for a period: table-shift, dealer, player-statement, game-performance,
    exceptions or shoe-log. A parameter the report does not take is a 400 naming it; the
    response's ``parameters`` are the ones it applied.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `auditor`.

    Args:
        kind (AuditReportsRetrieveKind):
        date_from (datetime.date | Unset):
        date_to (datetime.date | Unset):
        grouping (AuditReportsRetrieveGrouping | Unset):
        player (int | Unset):
        shift (str | Unset):
        table (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | ReportOutput
    """

    return (
        await asyncio_detailed(
            kind=kind,
            client=client,
            date_from=date_from,
            date_to=date_to,
            grouping=grouping,
            player=player,
            shift=shift,
            table=table,
        )
    ).parsed
