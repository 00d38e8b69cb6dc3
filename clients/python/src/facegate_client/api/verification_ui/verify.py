from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...types import UNSET, Unset
from uuid import UUID



def _get_kwargs(
    id: UUID,
    *,
    token: str,
    lang: str | Unset = UNSET,
    embed: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["token"] = token

    params["lang"] = lang

    params["embed"] = embed


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/verify/{id}".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | None:
    if response.status_code == 200:
        return None

    if response.status_code == 404:
        return None

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    token: str,
    lang: str | Unset = UNSET,
    embed: str | Unset = UNSET,

) -> Response[Any]:
    """ `GET /verify/{id}?token=`: the verification page. A wrong, unknown or expired link gets
    the page in its "link no longer valid" state with 404, and the page never asks for the
    camera; a session with a verdict shows its end state.

    Args:
        id (UUID):
        token (str):
        lang (str | Unset):
        embed (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
     """


    kwargs = _get_kwargs(
        id=id,
token=token,
lang=lang,
embed=embed,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient | Client,
    token: str,
    lang: str | Unset = UNSET,
    embed: str | Unset = UNSET,

) -> Response[Any]:
    """ `GET /verify/{id}?token=`: the verification page. A wrong, unknown or expired link gets
    the page in its "link no longer valid" state with 404, and the page never asks for the
    camera; a session with a verdict shows its end state.

    Args:
        id (UUID):
        token (str):
        lang (str | Unset):
        embed (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any]
     """


    kwargs = _get_kwargs(
        id=id,
token=token,
lang=lang,
embed=embed,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

