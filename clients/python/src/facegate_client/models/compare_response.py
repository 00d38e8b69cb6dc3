from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.face_model import FaceModel
from typing import cast

if TYPE_CHECKING:
  from ..models.face_dto import FaceDto





T = TypeVar("T", bound="CompareResponse")



@_attrs_define
class CompareResponse:
    """ 
        Attributes:
            face_model (FaceModel): A face model (embedder). Similarities are calibrated per model, so a threshold means the
                same false-accept rate with either; embeddings of two models are never compared.
            is_match (bool):
            similarity (float):
            source_face (FaceDto): One detected face.
            target_face (FaceDto): One detected face.
            threshold (float):
     """

    face_model: FaceModel
    is_match: bool
    similarity: float
    source_face: FaceDto
    target_face: FaceDto
    threshold: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.face_dto import FaceDto # noqa: PLC0415
        face_model = self.face_model.value

        is_match = self.is_match

        similarity = self.similarity

        source_face = self.source_face.to_dict()

        target_face = self.target_face.to_dict()

        threshold = self.threshold


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "face_model": face_model,
            "is_match": is_match,
            "similarity": similarity,
            "source_face": source_face,
            "target_face": target_face,
            "threshold": threshold,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.face_dto import FaceDto # noqa: PLC0415
        d = dict(src_dict)
        face_model = FaceModel(d.pop("face_model"))




        is_match = d.pop("is_match")

        similarity = d.pop("similarity")

        source_face = FaceDto.from_dict(d.pop("source_face"))




        target_face = FaceDto.from_dict(d.pop("target_face"))




        threshold = d.pop("threshold")

        compare_response = cls(
            face_model=face_model,
            is_match=is_match,
            similarity=similarity,
            source_face=source_face,
            target_face=target_face,
            threshold=threshold,
        )


        compare_response.additional_properties = d
        return compare_response

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
