from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="AuditFramesView")



@_attrs_define
class AuditFramesView:
    """ `GET /api/v1/session/{id}/audit-frames`.

        Attributes:
            frames (list[str]): JPEG frames as the camera sent them, in capture order, base64 (standard alphabet).
                Empty unless the operator set `sessions.audit_frames`.
            session_id (str):
     """

    frames: list[str]
    session_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        frames = self.frames



        session_id = self.session_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "frames": frames,
            "session_id": session_id,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        frames = cast(list[str], d.pop("frames"))


        session_id = d.pop("session_id")

        audit_frames_view = cls(
            frames=frames,
            session_id=session_id,
        )


        audit_frames_view.additional_properties = d
        return audit_frames_view

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
