from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.me_output import MeOutput
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/me/",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> MeOutput | Problem | None:
    if response.status_code == 200:
        response_200 = MeOutput.from_dict(response.json())

        return response_200

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
) -> Response[MeOutput | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[MeOutput | Problem]:
    """Who the caller is, which role it acts with and what it may see

     Who the caller is, which role it acts with and what it may see.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key), `dealer_device` (a device token). **Credential
    scope:** `read` (staff sessions need none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MeOutput | Problem]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> MeOutput | Problem | None:
    """Who the caller is, which role it acts with and what it may see

     Who the caller is, which role it acts with and what it may see.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key), `dealer_device` (a device token). **Credential
    scope:** `read` (staff sessions need none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MeOutput | Problem
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[MeOutput | Problem]:
    """Who the caller is, which role it acts with and what it may see

     Who the caller is, which role it acts with and what it may see.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key), `dealer_device` (a device token). **Credential
    scope:** `read` (staff sessions need none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[MeOutput | Problem]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> MeOutput | Problem | None:
    """Who the caller is, which role it acts with and what it may see

     Who the caller is, which role it acts with and what it may see.

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `operator_staff`, `auditor`,
    `operator_integration` (an operator's API key), `dealer_device` (a device token). **Credential
    scope:** `read` (staff sessions need none).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        MeOutput | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
