from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ClientMessageType8Data")



@_attrs_define
class ClientMessageType8Data:
    """ The client sent frames faster than `max_fps`: those past it were set aside unread (the
    session goes on with the others, never failed for it). Sent at most once a second
    while the client keeps it up; send at most `max_fps` frames a second.

        Attributes:
            max_fps (int):  Example: 30.
     """

    max_fps: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        max_fps = self.max_fps


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "max_fps": max_fps,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        max_fps = d.pop("max_fps")

        client_message_type_8_data = cls(
            max_fps=max_fps,
        )


        client_message_type_8_data.additional_properties = d
        return client_message_type_8_data

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
