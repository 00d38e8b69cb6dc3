from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.index_face_form import IndexFaceForm
from ...models.indexed_face_dto import IndexedFaceDto
from typing import cast



def _get_kwargs(
    external_id: str,
    *,
    body: IndexFaceForm,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v2/collections/{external_id}/faces".format(external_id=quote(str(external_id), safe=""),),
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | IndexedFaceDto | None:
    if response.status_code == 201:
        response_201 = IndexedFaceDto.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = ErrorBody.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = ErrorBody.from_dict(response.json())



        return response_401

    if response.status_code == 404:
        response_404 = ErrorBody.from_dict(response.json())



        return response_404

    if response.status_code == 408:
        response_408 = ErrorBody.from_dict(response.json())



        return response_408

    if response.status_code == 409:
        response_409 = ErrorBody.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = ErrorBody.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = ErrorBody.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = ErrorBody.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = ErrorBody.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | IndexedFaceDto]:
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
    body: IndexFaceForm,

) -> Response[ErrorBody | IndexedFaceDto]:
    """ 
    Args:
        external_id (str):
        body (IndexFaceForm): The face to index, its caller-side id, and whether low-quality faces
            are refused
            (`auto`, the default) or indexed anyway (`none`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | IndexedFaceDto]
     """


    kwargs = _get_kwargs(
        external_id=external_id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    external_id: str,
    *,
    client: AuthenticatedClient,
    body: IndexFaceForm,

) -> ErrorBody | IndexedFaceDto | None:
    """ 
    Args:
        external_id (str):
        body (IndexFaceForm): The face to index, its caller-side id, and whether low-quality faces
            are refused
            (`auto`, the default) or indexed anyway (`none`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | IndexedFaceDto
     """


    return sync_detailed(
        external_id=external_id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    external_id: str,
    *,
    client: AuthenticatedClient,
    body: IndexFaceForm,

) -> Response[ErrorBody | IndexedFaceDto]:
    """ 
    Args:
        external_id (str):
        body (IndexFaceForm): The face to index, its caller-side id, and whether low-quality faces
            are refused
            (`auto`, the default) or indexed anyway (`none`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | IndexedFaceDto]
     """


    kwargs = _get_kwargs(
        external_id=external_id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    external_id: str,
    *,
    client: AuthenticatedClient,
    body: IndexFaceForm,

) -> ErrorBody | IndexedFaceDto | None:
    """ 
    Args:
        external_id (str):
        body (IndexFaceForm): The face to index, its caller-side id, and whether low-quality faces
            are refused
            (`auto`, the default) or indexed anyway (`none`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | IndexedFaceDto
     """


    return (await asyncio_detailed(
        external_id=external_id,
client=client,
body=body,

    )).parsed
