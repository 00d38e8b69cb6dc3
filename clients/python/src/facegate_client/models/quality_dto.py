from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="QualityDto")



@_attrs_define
class QualityDto:
    """ Measured quality of the face region.

        Attributes:
            brightness (float): Mean luma of the face box in 0..1.
            face_size (float): Shorter side of the face box in pixels.
            frontalness (float): 1 for a frontal face, falling to 0 at 45° of yaw or pitch.
            sharpness (float): Focus in 0..1 from the variance of the Laplacian (0.5 is acceptable).
     """

    brightness: float
    face_size: float
    frontalness: float
    sharpness: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        brightness = self.brightness

        face_size = self.face_size

        frontalness = self.frontalness

        sharpness = self.sharpness


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "brightness": brightness,
            "face_size": face_size,
            "frontalness": frontalness,
            "sharpness": sharpness,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        brightness = d.pop("brightness")

        face_size = d.pop("face_size")

        frontalness = d.pop("frontalness")

        sharpness = d.pop("sharpness")

        quality_dto = cls(
            brightness=brightness,
            face_size=face_size,
            frontalness=frontalness,
            sharpness=sharpness,
        )


        quality_dto.additional_properties = d
        return quality_dto

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
