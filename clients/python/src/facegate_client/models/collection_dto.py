from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.face_model import FaceModel
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CollectionDto")



@_attrs_define
class CollectionDto:
    """ 
        Attributes:
            created_at (int):
            description (str):
            external_id (str):
            face_model (FaceModel): A face model (embedder). Similarities are calibrated per model, so a threshold means the
                same false-accept rate with either; embeddings of two models are never compared.
            face_count (int | None | Unset):
     """

    created_at: int
    description: str
    external_id: str
    face_model: FaceModel
    face_count: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at

        description = self.description

        external_id = self.external_id

        face_model = self.face_model.value

        face_count: int | None | Unset
        if isinstance(self.face_count, Unset):
            face_count = UNSET
        else:
            face_count = self.face_count


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "description": description,
            "external_id": external_id,
            "face_model": face_model,
        })
        if face_count is not UNSET:
            field_dict["face_count"] = face_count

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = d.pop("created_at")

        description = d.pop("description")

        external_id = d.pop("external_id")

        face_model = FaceModel(d.pop("face_model"))




        def _parse_face_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        face_count = _parse_face_count(d.pop("face_count", UNSET))


        collection_dto = cls(
            created_at=created_at,
            description=description,
            external_id=external_id,
            face_model=face_model,
            face_count=face_count,
        )


        collection_dto.additional_properties = d
        return collection_dto

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
