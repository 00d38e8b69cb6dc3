from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.face_dto import FaceDto





T = TypeVar("T", bound="IndexedFaceDto")



@_attrs_define
class IndexedFaceDto:
    """ 
        Attributes:
            collection (str):
            created_at (int):
            external_face_id (str):
            face (FaceDto): One detected face.
            face_id (str):
            model (str):
     """

    collection: str
    created_at: int
    external_face_id: str
    face: FaceDto
    face_id: str
    model: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.face_dto import FaceDto # noqa: PLC0415
        collection = self.collection

        created_at = self.created_at

        external_face_id = self.external_face_id

        face = self.face.to_dict()

        face_id = self.face_id

        model = self.model


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "collection": collection,
            "created_at": created_at,
            "external_face_id": external_face_id,
            "face": face,
            "face_id": face_id,
            "model": model,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.face_dto import FaceDto # noqa: PLC0415
        d = dict(src_dict)
        collection = d.pop("collection")

        created_at = d.pop("created_at")

        external_face_id = d.pop("external_face_id")

        face = FaceDto.from_dict(d.pop("face"))




        face_id = d.pop("face_id")

        model = d.pop("model")

        indexed_face_dto = cls(
            collection=collection,
            created_at=created_at,
            external_face_id=external_face_id,
            face=face,
            face_id=face_id,
            model=model,
        )


        indexed_face_dto.additional_properties = d
        return indexed_face_dto

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
