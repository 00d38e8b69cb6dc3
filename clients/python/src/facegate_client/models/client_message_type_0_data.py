from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="ClientMessageType0Data")



@_attrs_define
class ClientMessageType0Data:
    """ First message: what the session will ask.
    `challenge_count` is how many challenges this connection asks: a passive session on
    the no-flash path asks head turns (`liveness_path`: `light` or `no_flash`).
    `max_fps` is the most frames a second the connection takes (about a second's worth may
    come at once); a frame past it is set aside unread, and `slow_down` says so.

        Attributes:
            challenge_count (int):
            liveness_path (str):  Example: light.
            max_fps (int):  Example: 30.
            mode (str):  Example: passive.
     """

    challenge_count: int
    liveness_path: str
    max_fps: int
    mode: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        challenge_count = self.challenge_count

        liveness_path = self.liveness_path

        max_fps = self.max_fps

        mode = self.mode


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "challenge_count": challenge_count,
            "liveness_path": liveness_path,
            "max_fps": max_fps,
            "mode": mode,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        challenge_count = d.pop("challenge_count")

        liveness_path = d.pop("liveness_path")

        max_fps = d.pop("max_fps")

        mode = d.pop("mode")

        client_message_type_0_data = cls(
            challenge_count=challenge_count,
            liveness_path=liveness_path,
            max_fps=max_fps,
            mode=mode,
        )


        client_message_type_0_data.additional_properties = d
        return client_message_type_0_data

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
