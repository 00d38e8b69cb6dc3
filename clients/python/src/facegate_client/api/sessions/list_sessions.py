from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.error_body import ErrorBody
from ...models.list_sessions_status import ListSessionsStatus
from ...models.list_sessions_verdict import ListSessionsVerdict
from ...models.session_list_view import SessionListView
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    reference_id: str | Unset = UNSET,
    status: ListSessionsStatus | Unset = UNSET,
    verdict: ListSessionsVerdict | Unset = UNSET,
    created_after: int | Unset = UNSET,
    created_before: int | Unset = UNSET,
    max_results: int | Unset = 20,
    next_token: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["reference_id"] = reference_id

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    json_verdict: str | Unset = UNSET
    if not isinstance(verdict, Unset):
        json_verdict = verdict.value

    params["verdict"] = json_verdict

    params["created_after"] = created_after

    params["created_before"] = created_before

    params["max_results"] = max_results

    params["next_token"] = next_token


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/sessions",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ErrorBody | SessionListView | None:
    if response.status_code == 200:
        response_200 = SessionListView.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ErrorBody | SessionListView]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    reference_id: str | Unset = UNSET,
    status: ListSessionsStatus | Unset = UNSET,
    verdict: ListSessionsVerdict | Unset = UNSET,
    created_after: int | Unset = UNSET,
    created_before: int | Unset = UNSET,
    max_results: int | Unset = 20,
    next_token: str | Unset = UNSET,

) -> Response[ErrorBody | SessionListView]:
    """ 
    Args:
        reference_id (str | Unset):
        status (ListSessionsStatus | Unset):
        verdict (ListSessionsVerdict | Unset):
        created_after (int | Unset):
        created_before (int | Unset):
        max_results (int | Unset):  Default: 20.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SessionListView]
     """


    kwargs = _get_kwargs(
        reference_id=reference_id,
status=status,
verdict=verdict,
created_after=created_after,
created_before=created_before,
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
    reference_id: str | Unset = UNSET,
    status: ListSessionsStatus | Unset = UNSET,
    verdict: ListSessionsVerdict | Unset = UNSET,
    created_after: int | Unset = UNSET,
    created_before: int | Unset = UNSET,
    max_results: int | Unset = 20,
    next_token: str | Unset = UNSET,

) -> ErrorBody | SessionListView | None:
    """ 
    Args:
        reference_id (str | Unset):
        status (ListSessionsStatus | Unset):
        verdict (ListSessionsVerdict | Unset):
        created_after (int | Unset):
        created_before (int | Unset):
        max_results (int | Unset):  Default: 20.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SessionListView
     """


    return sync_detailed(
        client=client,
reference_id=reference_id,
status=status,
verdict=verdict,
created_after=created_after,
created_before=created_before,
max_results=max_results,
next_token=next_token,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    reference_id: str | Unset = UNSET,
    status: ListSessionsStatus | Unset = UNSET,
    verdict: ListSessionsVerdict | Unset = UNSET,
    created_after: int | Unset = UNSET,
    created_before: int | Unset = UNSET,
    max_results: int | Unset = 20,
    next_token: str | Unset = UNSET,

) -> Response[ErrorBody | SessionListView]:
    """ 
    Args:
        reference_id (str | Unset):
        status (ListSessionsStatus | Unset):
        verdict (ListSessionsVerdict | Unset):
        created_after (int | Unset):
        created_before (int | Unset):
        max_results (int | Unset):  Default: 20.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorBody | SessionListView]
     """


    kwargs = _get_kwargs(
        reference_id=reference_id,
status=status,
verdict=verdict,
created_after=created_after,
created_before=created_before,
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
    reference_id: str | Unset = UNSET,
    status: ListSessionsStatus | Unset = UNSET,
    verdict: ListSessionsVerdict | Unset = UNSET,
    created_after: int | Unset = UNSET,
    created_before: int | Unset = UNSET,
    max_results: int | Unset = 20,
    next_token: str | Unset = UNSET,

) -> ErrorBody | SessionListView | None:
    """ 
    Args:
        reference_id (str | Unset):
        status (ListSessionsStatus | Unset):
        verdict (ListSessionsVerdict | Unset):
        created_after (int | Unset):
        created_before (int | Unset):
        max_results (int | Unset):  Default: 20.
        next_token (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorBody | SessionListView
     """


    return (await asyncio_detailed(
        client=client,
reference_id=reference_id,
status=status,
verdict=verdict,
created_after=created_after,
created_before=created_before,
max_results=max_results,
next_token=next_token,

    )).parsed
