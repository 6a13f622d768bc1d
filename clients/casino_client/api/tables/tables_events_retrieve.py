from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.tables_events_retrieve_format import TablesEventsRetrieveFormat
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: int,
    *,
    format_: TablesEventsRetrieveFormat | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    params["last_event_id"] = last_event_id

    params["wait"] = wait

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/tables/{id}/events/".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
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
) -> Response[Problem | str]:
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
    format_: TablesEventsRetrieveFormat | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> Response[Problem | str]:
    """Table: events

     Server-Sent Events: the table's round events as they happen (bets, cards shown, turns,
    phases). A new stream starts with a ``snapshot`` event: the table's current round as
    ``GET /rounds/{id}/`` shows it to the caller (``null`` before the first round), whose id is
    the key the snapshot is current to; the events after it follow (an engine event whose
    ``seq`` the snapshot already counts may follow it: skip it by ``seq``). With
    ``Last-Event-ID`` (or ``last_event_id``) the stream resumes after that event instead,
    exactly (a malformed id, or one past the table's newest event, starts with a snapshot).
    Comment lines are sent as heartbeats when the table is quiet; the stream ends after
    ``wait`` seconds and the client reconnects with the last id. A credential may hold
    ``TABLES_STREAMS_PER_CREDENTIAL`` streams at once (429 ``too-many-streams``).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):
        format_ (TablesEventsRetrieveFormat | Unset):
        last_event_id (str | Unset):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        last_event_id=last_event_id,
        wait=wait,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: int,
    *,
    client: AuthenticatedClient,
    format_: TablesEventsRetrieveFormat | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> Problem | str | None:
    """Table: events

     Server-Sent Events: the table's round events as they happen (bets, cards shown, turns,
    phases). A new stream starts with a ``snapshot`` event: the table's current round as
    ``GET /rounds/{id}/`` shows it to the caller (``null`` before the first round), whose id is
    the key the snapshot is current to; the events after it follow (an engine event whose
    ``seq`` the snapshot already counts may follow it: skip it by ``seq``). With
    ``Last-Event-ID`` (or ``last_event_id``) the stream resumes after that event instead,
    exactly (a malformed id, or one past the table's newest event, starts with a snapshot).
    Comment lines are sent as heartbeats when the table is quiet; the stream ends after
    ``wait`` seconds and the client reconnects with the last id. A credential may hold
    ``TABLES_STREAMS_PER_CREDENTIAL`` streams at once (429 ``too-many-streams``).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):
        format_ (TablesEventsRetrieveFormat | Unset):
        last_event_id (str | Unset):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return sync_detailed(
        id=id,
        client=client,
        format_=format_,
        last_event_id=last_event_id,
        wait=wait,
    ).parsed


async def asyncio_detailed(
    id: int,
    *,
    client: AuthenticatedClient,
    format_: TablesEventsRetrieveFormat | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> Response[Problem | str]:
    """Table: events

     Server-Sent Events: the table's round events as they happen (bets, cards shown, turns,
    phases). A new stream starts with a ``snapshot`` event: the table's current round as
    ``GET /rounds/{id}/`` shows it to the caller (``null`` before the first round), whose id is
    the key the snapshot is current to; the events after it follow (an engine event whose
    ``seq`` the snapshot already counts may follow it: skip it by ``seq``). With
    ``Last-Event-ID`` (or ``last_event_id``) the stream resumes after that event instead,
    exactly (a malformed id, or one past the table's newest event, starts with a snapshot).
    Comment lines are sent as heartbeats when the table is quiet; the stream ends after
    ``wait`` seconds and the client reconnects with the last id. A credential may hold
    ``TABLES_STREAMS_PER_CREDENTIAL`` streams at once (429 ``too-many-streams``).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):
        format_ (TablesEventsRetrieveFormat | Unset):
        last_event_id (str | Unset):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
    """

    kwargs = _get_kwargs(
        id=id,
        format_=format_,
        last_event_id=last_event_id,
        wait=wait,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: int,
    *,
    client: AuthenticatedClient,
    format_: TablesEventsRetrieveFormat | Unset = UNSET,
    last_event_id: str | Unset = UNSET,
    wait: int | Unset = UNSET,
) -> Problem | str | None:
    """Table: events

     Server-Sent Events: the table's round events as they happen (bets, cards shown, turns,
    phases). A new stream starts with a ``snapshot`` event: the table's current round as
    ``GET /rounds/{id}/`` shows it to the caller (``null`` before the first round), whose id is
    the key the snapshot is current to; the events after it follow (an engine event whose
    ``seq`` the snapshot already counts may follow it: skip it by ``seq``). With
    ``Last-Event-ID`` (or ``last_event_id``) the stream resumes after that event instead,
    exactly (a malformed id, or one past the table's newest event, starts with a snapshot).
    Comment lines are sent as heartbeats when the table is quiet; the stream ends after
    ``wait`` seconds and the client reconnects with the last id. A credential may hold
    ``TABLES_STREAMS_PER_CREDENTIAL`` streams at once (429 ``too-many-streams``).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `auditor`, `operator_integration` (an
    operator's API key), `dealer_device` (a device token). **Credential scope:** `read` (staff sessions
    need none).

    Args:
        id (int):
        format_ (TablesEventsRetrieveFormat | Unset):
        last_event_id (str | Unset):
        wait (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            format_=format_,
            last_event_id=last_event_id,
            wait=wait,
        )
    ).parsed
