from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.face_list import FaceList
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    external_id: str,
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
        "url": "/api/v2/collections/{external_id}/faces".format(external_id=quote(str(external_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | FaceList | None:
    if response.status_code == 200:
        response_200 = FaceList.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | FaceList]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    external_id: str,
    *,
    client: AuthenticatedClient,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> Response[ErrorBody | FaceList]:
    """ 
    Args:
        external_id (str):
        max_results (int | Unset):  Default: 10.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FaceList]
     """


    kwargs = _get_kwargs(
        external_id=external_id,
max_results=max_results,
next_token=next_token,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    external_id: str,
    *,
    client: AuthenticatedClient,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> ErrorBody | FaceList | None:
    """ 
    Args:
        external_id (str):
        max_results (int | Unset):  Default: 10.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FaceList
     """


    return sync_detailed(
        external_id=external_id,
client=client,
max_results=max_results,
next_token=next_token,

    ).parsed

async def asyncio_detailed(
    external_id: str,
    *,
    client: AuthenticatedClient,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> Response[ErrorBody | FaceList]:
    """ 
    Args:
        external_id (str):
        max_results (int | Unset):  Default: 10.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | FaceList]
     """


    kwargs = _get_kwargs(
        external_id=external_id,
max_results=max_results,
next_token=next_token,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    external_id: str,
    *,
    client: AuthenticatedClient,
    max_results: int | Unset = 10,
    next_token: str | Unset = UNSET,

) -> ErrorBody | FaceList | None:
    """ 
    Args:
        external_id (str):
        max_results (int | Unset):  Default: 10.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | FaceList
     """


    return (await asyncio_detailed(
        external_id=external_id,
client=client,
max_results=max_results,
next_token=next_token,

    )).parsed
