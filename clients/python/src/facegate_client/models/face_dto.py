from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.box_dto import BoxDto
  from ..models.landmarks_dto import LandmarksDto
  from ..models.pose_dto import PoseDto
  from ..models.quality_dto import QualityDto





T = TypeVar("T", bound="FaceDto")



@_attrs_define
class FaceDto:
    """ One detected face.

        Attributes:
            bounding_box (BoxDto): A box in image pixels: top-left corner and size.
            confidence (float): Detector confidence in 0..1.
            landmarks (LandmarksDto): Six keypoints, named from the person's point of view (the person's right eye appears
                on
                the image's left in an unmirrored photo).
            pose (PoseDto): Head pose in degrees: yaw positive when the nose turns toward the image's right, pitch
                positive when the head tilts up, roll positive when the eye line turns clockwise.
            quality (QualityDto): Measured quality of the face region.
     """

    bounding_box: BoxDto
    confidence: float
    landmarks: LandmarksDto
    pose: PoseDto
    quality: QualityDto
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.box_dto import BoxDto # noqa: PLC0415
        from ..models.landmarks_dto import LandmarksDto # noqa: PLC0415
        from ..models.pose_dto import PoseDto # noqa: PLC0415
        from ..models.quality_dto import QualityDto # noqa: PLC0415
        bounding_box = self.bounding_box.to_dict()

        confidence = self.confidence

        landmarks = self.landmarks.to_dict()

        pose = self.pose.to_dict()

        quality = self.quality.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "bounding_box": bounding_box,
            "confidence": confidence,
            "landmarks": landmarks,
            "pose": pose,
            "quality": quality,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.box_dto import BoxDto # noqa: PLC0415
        from ..models.landmarks_dto import LandmarksDto # noqa: PLC0415
        from ..models.pose_dto import PoseDto # noqa: PLC0415
        from ..models.quality_dto import QualityDto # noqa: PLC0415
        d = dict(src_dict)
        bounding_box = BoxDto.from_dict(d.pop("bounding_box"))




        confidence = d.pop("confidence")

        landmarks = LandmarksDto.from_dict(d.pop("landmarks"))




        pose = PoseDto.from_dict(d.pop("pose"))




        quality = QualityDto.from_dict(d.pop("quality"))




        face_dto = cls(
            bounding_box=bounding_box,
            confidence=confidence,
            landmarks=landmarks,
            pose=pose,
            quality=quality,
        )


        face_dto.additional_properties = d
        return face_dto

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
