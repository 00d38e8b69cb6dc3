from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from typing import cast
from uuid import UUID



def _get_kwargs(
    external_id: str,
    face_id: UUID,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/api/v2/collections/{external_id}/faces/{face_id}".format(external_id=quote(str(external_id), safe=""),face_id=quote(str(face_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | ErrorBody | None:
    if response.status_code == 204:
        response_204 = cast(Any, None)
        return response_204

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | ErrorBody]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    external_id: str,
    face_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Any | ErrorBody]:
    """ 
    Args:
        external_id (str):
        face_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        external_id=external_id,
face_id=face_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    external_id: str,
    face_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Any | ErrorBody | None:
    """ 
    Args:
        external_id (str):
        face_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return sync_detailed(
        external_id=external_id,
face_id=face_id,
client=client,

    ).parsed

async def asyncio_detailed(
    external_id: str,
    face_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Response[Any | ErrorBody]:
    """ 
    Args:
        external_id (str):
        face_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorBody]
     """


    kwargs = _get_kwargs(
        external_id=external_id,
face_id=face_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    external_id: str,
    face_id: UUID,
    *,
    client: AuthenticatedClient,

) -> Any | ErrorBody | None:
    """ 
    Args:
        external_id (str):
        face_id (UUID):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorBody
     """


    return (await asyncio_detailed(
        external_id=external_id,
face_id=face_id,
client=client,

    )).parsed
