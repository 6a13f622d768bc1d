from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.operator_event_output import OperatorEventOutput
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    event_id: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/operator-events/{event_id}/redeliver/".format(
            event_id=quote(str(event_id), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> OperatorEventOutput | Problem | None:
    if response.status_code == 202:
        response_202 = OperatorEventOutput.from_dict(response.json())

        return response_202

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
) -> Response[OperatorEventOutput | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[OperatorEventOutput | Problem]:
    """Operator event: redeliver

     Send a past event to the operator's webhook endpoint again (same ``webhook-id``), as a
    new series of attempts; audited. An operator's key redelivers its own events; staff any.
    The body, if any, is an empty object: a field in it is a 400 naming it. 409 while an
    attempt is in flight, for the webhook's own circuit events, and when the operator has no
    webhook URL.

    **Allowed roles:** `floor_supervisor`, `operator_integration` (an operator's API key). **Credential
    scope:** `money` (staff sessions need none).

    Args:
        event_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OperatorEventOutput | Problem]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    event_id: str,
    *,
    client: AuthenticatedClient,
) -> OperatorEventOutput | Problem | None:
    """Operator event: redeliver

     Send a past event to the operator's webhook endpoint again (same ``webhook-id``), as a
    new series of attempts; audited. An operator's key redelivers its own events; staff any.
    The body, if any, is an empty object: a field in it is a 400 naming it. 409 while an
    attempt is in flight, for the webhook's own circuit events, and when the operator has no
    webhook URL.

    **Allowed roles:** `floor_supervisor`, `operator_integration` (an operator's API key). **Credential
    scope:** `money` (staff sessions need none).

    Args:
        event_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OperatorEventOutput | Problem
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
    ).parsed


async def asyncio_detailed(
    event_id: str,
    *,
    client: AuthenticatedClient,
) -> Response[OperatorEventOutput | Problem]:
    """Operator event: redeliver

     Send a past event to the operator's webhook endpoint again (same ``webhook-id``), as a
    new series of attempts; audited. An operator's key redelivers its own events; staff any.
    The body, if any, is an empty object: a field in it is a 400 naming it. 409 while an
    attempt is in flight, for the webhook's own circuit events, and when the operator has no
    webhook URL.

    **Allowed roles:** `floor_supervisor`, `operator_integration` (an operator's API key). **Credential
    scope:** `money` (staff sessions need none).

    Args:
        event_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OperatorEventOutput | Problem]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: str,
    *,
    client: AuthenticatedClient,
) -> OperatorEventOutput | Problem | None:
    """Operator event: redeliver

     Send a past event to the operator's webhook endpoint again (same ``webhook-id``), as a
    new series of attempts; audited. An operator's key redelivers its own events; staff any.
    The body, if any, is an empty object: a field in it is a 400 naming it. 409 while an
    attempt is in flight, for the webhook's own circuit events, and when the operator has no
    webhook URL.

    **Allowed roles:** `floor_supervisor`, `operator_integration` (an operator's API key). **Credential
    scope:** `money` (staff sessions need none).

    Args:
        event_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OperatorEventOutput | Problem
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
        )
    ).parsed
