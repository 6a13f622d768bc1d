from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.staff_token_created import StaffTokenCreated
from ...models.staff_token_list_create_input_request import StaffTokenListCreateInputRequest
from ...types import Response


def _get_kwargs(
    *,
    body: StaffTokenListCreateInputRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/staff-tokens/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | StaffTokenCreated | None:
    if response.status_code == 201:
        response_201 = StaffTokenCreated.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

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
) -> Response[Problem | StaffTokenCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: StaffTokenListCreateInputRequest,
) -> Response[Problem | StaffTokenCreated]:
    """Mint a personal staff API token (verified console session only)

     Your own staff API tokens; POST mints one (from a verified console session only).

    A staff API token (`Authorization: Bearer st_…`) acts as you, with ONE of your roles (the
    `role` you name), for at most `API_STAFF_TOKEN_LIFETIME_HOURS` (12) hours, with its scopes
    (default `read`, `pit`) and optional address allow-list: script pit work such as a void
    request (pit boss) or its approval (floor supervisor) without a browser. It can only be
    minted from a console session that passed the second factor (not with a key, a device token
    or another staff token), and stops working when revoked, expired, or when you lose the role
    or are deactivated. Four-eyes rules compare people: your token cannot approve your own
    request. The secret is in the creation answer only; listings never show it. Issue and
    revocation are audited (`staff_token.issued`, `staff_token.revoked`).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `operator_staff`.

    Args:
        body (StaffTokenListCreateInputRequest): What a new credential may do, from where, until
            when (defaults: its kind's scopes, any
            address, the longest lifetime allowed).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StaffTokenCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: StaffTokenListCreateInputRequest,
) -> Problem | StaffTokenCreated | None:
    """Mint a personal staff API token (verified console session only)

     Your own staff API tokens; POST mints one (from a verified console session only).

    A staff API token (`Authorization: Bearer st_…`) acts as you, with ONE of your roles (the
    `role` you name), for at most `API_STAFF_TOKEN_LIFETIME_HOURS` (12) hours, with its scopes
    (default `read`, `pit`) and optional address allow-list: script pit work such as a void
    request (pit boss) or its approval (floor supervisor) without a browser. It can only be
    minted from a console session that passed the second factor (not with a key, a device token
    or another staff token), and stops working when revoked, expired, or when you lose the role
    or are deactivated. Four-eyes rules compare people: your token cannot approve your own
    request. The secret is in the creation answer only; listings never show it. Issue and
    revocation are audited (`staff_token.issued`, `staff_token.revoked`).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `operator_staff`.

    Args:
        body (StaffTokenListCreateInputRequest): What a new credential may do, from where, until
            when (defaults: its kind's scopes, any
            address, the longest lifetime allowed).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StaffTokenCreated
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: StaffTokenListCreateInputRequest,
) -> Response[Problem | StaffTokenCreated]:
    """Mint a personal staff API token (verified console session only)

     Your own staff API tokens; POST mints one (from a verified console session only).

    A staff API token (`Authorization: Bearer st_…`) acts as you, with ONE of your roles (the
    `role` you name), for at most `API_STAFF_TOKEN_LIFETIME_HOURS` (12) hours, with its scopes
    (default `read`, `pit`) and optional address allow-list: script pit work such as a void
    request (pit boss) or its approval (floor supervisor) without a browser. It can only be
    minted from a console session that passed the second factor (not with a key, a device token
    or another staff token), and stops working when revoked, expired, or when you lose the role
    or are deactivated. Four-eyes rules compare people: your token cannot approve your own
    request. The secret is in the creation answer only; listings never show it. Issue and
    revocation are audited (`staff_token.issued`, `staff_token.revoked`).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `operator_staff`.

    Args:
        body (StaffTokenListCreateInputRequest): What a new credential may do, from where, until
            when (defaults: its kind's scopes, any
            address, the longest lifetime allowed).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StaffTokenCreated]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: StaffTokenListCreateInputRequest,
) -> Problem | StaffTokenCreated | None:
    """Mint a personal staff API token (verified console session only)

     Your own staff API tokens; POST mints one (from a verified console session only).

    A staff API token (`Authorization: Bearer st_…`) acts as you, with ONE of your roles (the
    `role` you name), for at most `API_STAFF_TOKEN_LIFETIME_HOURS` (12) hours, with its scopes
    (default `read`, `pit`) and optional address allow-list: script pit work such as a void
    request (pit boss) or its approval (floor supervisor) without a browser. It can only be
    minted from a console session that passed the second factor (not with a key, a device token
    or another staff token), and stops working when revoked, expired, or when you lose the role
    or are deactivated. Four-eyes rules compare people: your token cannot approve your own
    request. The secret is in the creation answer only; listings never show it. Issue and
    revocation are audited (`staff_token.issued`, `staff_token.revoked`).

    **Allowed roles:** `pit_boss`, `floor_supervisor`, `dealer`, `operator_staff`.

    Args:
        body (StaffTokenListCreateInputRequest): What a new credential may do, from where, until
            when (defaults: its kind's scopes, any
            address, the longest lifetime allowed).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StaffTokenCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
