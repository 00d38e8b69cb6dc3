from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="PoseDto")



@_attrs_define
class PoseDto:
    """ Head pose in degrees: yaw positive when the nose turns toward the image's right, pitch
    positive when the head tilts up, roll positive when the eye line turns clockwise.

        Attributes:
            pitch (float):
            roll (float):
            yaw (float):
     """

    pitch: float
    roll: float
    yaw: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        pitch = self.pitch

        roll = self.roll

        yaw = self.yaw


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "pitch": pitch,
            "roll": roll,
            "yaw": yaw,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        pitch = d.pop("pitch")

        roll = d.pop("roll")

        yaw = d.pop("yaw")

        pose_dto = cls(
            pitch=pitch,
            roll=roll,
            yaw=yaw,
        )


        pose_dto.additional_properties = d
        return pose_dto

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
