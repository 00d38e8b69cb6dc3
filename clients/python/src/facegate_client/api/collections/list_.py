from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.collection_list import CollectionList
from ...models.error_body import ErrorBody
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["max_results"] = max_results

    params["next_token"] = next_token


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v2/collections",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CollectionList | ErrorBody | None:
    if response.status_code == 200:
        response_200 = CollectionList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CollectionList | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> Response[CollectionList | ErrorBody]:
    """ 
    Args:
        max_results (int | Unset):  Default: 10.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CollectionList | ErrorBody]
     """


    kwargs = _get_kwargs(
        max_results=max_results,
next_token=next_token,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> CollectionList | ErrorBody | None:
    """ 
    Args:
        max_results (int | Unset):  Default: 10.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CollectionList | ErrorBody
     """


    return sync_detailed(
        client=client,
max_results=max_results,
next_token=next_token,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> Response[CollectionList | ErrorBody]:
    """ 
    Args:
        max_results (int | Unset):  Default: 10.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CollectionList | ErrorBody]
     """


    kwargs = _get_kwargs(
        max_results=max_results,
next_token=next_token,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> CollectionList | ErrorBody | None:
    """ 
    Args:
        max_results (int | Unset):  Default: 10.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CollectionList | ErrorBody
     """


    return (await asyncio_detailed(
        client=client,
max_results=max_results,
next_token=next_token,

    )).parsed
