from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.public_keys_output import PublicKeysOutput
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/audit/keys/",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | PublicKeysOutput | None:
    if response.status_code == 200:
        response_200 = PublicKeysOutput.from_dict(response.json())

        return response_200

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | PublicKeysOutput]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | PublicKeysOutput]:
    """The public keys that verify audit seals, exported heads and export bundles

     The public keys that verify audit seals, exported heads and export bundles.

    Public by design (anyone may read them: a verifier needs nothing else), so no credential
    and no audit event; the private halves never leave the settings.

    **Allowed roles:** public (no credentials).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PublicKeysOutput]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | PublicKeysOutput | None:
    """The public keys that verify audit seals, exported heads and export bundles

     The public keys that verify audit seals, exported heads and export bundles.

    Public by design (anyone may read them: a verifier needs nothing else), so no credential
    and no audit event; the private halves never leave the settings.

    **Allowed roles:** public (no credentials).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PublicKeysOutput
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Problem | PublicKeysOutput]:
    """The public keys that verify audit seals, exported heads and export bundles

     The public keys that verify audit seals, exported heads and export bundles.

    Public by design (anyone may read them: a verifier needs nothing else), so no credential
    and no audit event; the private halves never leave the settings.

    **Allowed roles:** public (no credentials).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | PublicKeysOutput]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Problem | PublicKeysOutput | None:
    """The public keys that verify audit seals, exported heads and export bundles

     The public keys that verify audit seals, exported heads and export bundles.

    Public by design (anyone may read them: a verifier needs nothing else), so no credential
    and no audit event; the private halves never leave the settings.

    **Allowed roles:** public (no credentials).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | PublicKeysOutput
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
