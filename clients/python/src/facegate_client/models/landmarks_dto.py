from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.point_dto import PointDto





T = TypeVar("T", bound="LandmarksDto")



@_attrs_define
class LandmarksDto:
    """ Six keypoints, named from the person's point of view (the person's right eye appears on
    the image's left in an unmirrored photo).

        Attributes:
            left_ear (PointDto): A point in image pixels.
            left_eye (PointDto): A point in image pixels.
            mouth_center (PointDto): A point in image pixels.
            nose_tip (PointDto): A point in image pixels.
            right_ear (PointDto): A point in image pixels.
            right_eye (PointDto): A point in image pixels.
     """

    left_ear: PointDto
    left_eye: PointDto
    mouth_center: PointDto
    nose_tip: PointDto
    right_ear: PointDto
    right_eye: PointDto
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.point_dto import PointDto # noqa: PLC0415
        left_ear = self.left_ear.to_dict()

        left_eye = self.left_eye.to_dict()

        mouth_center = self.mouth_center.to_dict()

        nose_tip = self.nose_tip.to_dict()

        right_ear = self.right_ear.to_dict()

        right_eye = self.right_eye.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "left_ear": left_ear,
            "left_eye": left_eye,
            "mouth_center": mouth_center,
            "nose_tip": nose_tip,
            "right_ear": right_ear,
            "right_eye": right_eye,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.point_dto import PointDto # noqa: PLC0415
        d = dict(src_dict)
        left_ear = PointDto.from_dict(d.pop("left_ear"))




        left_eye = PointDto.from_dict(d.pop("left_eye"))




        mouth_center = PointDto.from_dict(d.pop("mouth_center"))




        nose_tip = PointDto.from_dict(d.pop("nose_tip"))




        right_ear = PointDto.from_dict(d.pop("right_ear"))




        right_eye = PointDto.from_dict(d.pop("right_eye"))




        landmarks_dto = cls(
            left_ear=left_ear,
            left_eye=left_eye,
            mouth_center=mouth_center,
            nose_tip=nose_tip,
            right_ear=right_ear,
            right_eye=right_eye,
        )


        landmarks_dto.additional_properties = d
        return landmarks_dto

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
