from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.paginated_staff_token_output_list import PaginatedStaffTokenOutputList
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["page_size"] = page_size

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/staff-tokens/",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> PaginatedStaffTokenOutputList | Problem | None:
    if response.status_code == 200:
        response_200 = PaginatedStaffTokenOutputList.from_dict(response.json())

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
) -> Response[PaginatedStaffTokenOutputList | Problem]:
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
) -> Response[PaginatedStaffTokenOutputList | Problem]:
    """List your own staff API tokens (no secrets)

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
        cursor (str | Unset):
        page_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedStaffTokenOutputList | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        page_size=page_size,
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
) -> PaginatedStaffTokenOutputList | Problem | None:
    """List your own staff API tokens (no secrets)

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
        cursor (str | Unset):
        page_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedStaffTokenOutputList | Problem
    """

    return sync_detailed(
        client=client,
        cursor=cursor,
        page_size=page_size,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
) -> Response[PaginatedStaffTokenOutputList | Problem]:
    """List your own staff API tokens (no secrets)

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
        cursor (str | Unset):
        page_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[PaginatedStaffTokenOutputList | Problem]
    """

    kwargs = _get_kwargs(
        cursor=cursor,
        page_size=page_size,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    page_size: int | Unset = UNSET,
) -> PaginatedStaffTokenOutputList | Problem | None:
    """List your own staff API tokens (no secrets)

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
        cursor (str | Unset):
        page_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        PaginatedStaffTokenOutputList | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            cursor=cursor,
            page_size=page_size,
        )
    ).parsed
