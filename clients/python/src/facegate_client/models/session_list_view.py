from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.session_result_view import SessionResultView





T = TypeVar("T", bound="SessionListView")



@_attrs_define
class SessionListView:
    """ `GET /api/v1/sessions`: one page, newest first.

        Attributes:
            sessions (list[SessionResultView]): Each session as `GET /api/v1/session/{id}/result` answers the API key.
            next_token (None | str | Unset): Pass as `next_token` for the next page; null on the last page.
     """

    sessions: list[SessionResultView]
    next_token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.session_result_view import SessionResultView # noqa: PLC0415
        sessions = []
        for sessions_item_data in self.sessions:
            sessions_item = sessions_item_data.to_dict()
            sessions.append(sessions_item)



        next_token: None | str | Unset
        if isinstance(self.next_token, Unset):
            next_token = UNSET
        else:
            next_token = self.next_token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "sessions": sessions,
        })
        if next_token is not UNSET:
            field_dict["next_token"] = next_token

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.session_result_view import SessionResultView # noqa: PLC0415
        d = dict(src_dict)
        sessions = []
        _sessions = d.pop("sessions")
        for sessions_item_data in (_sessions):
            sessions_item = SessionResultView.from_dict(sessions_item_data)



            sessions.append(sessions_item)


        def _parse_next_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_token = _parse_next_token(d.pop("next_token", UNSET))


        session_list_view = cls(
            sessions=sessions,
            next_token=next_token,
        )


        session_list_view.additional_properties = d
        return session_list_view

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
