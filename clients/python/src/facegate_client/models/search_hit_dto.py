from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="SearchHitDto")



@_attrs_define
class SearchHitDto:
    """ 
        Attributes:
            external_face_id (str):
            face_id (str):
            similarity (float): Calibrated similarity in 0..1 (same scale as compare).
     """

    external_face_id: str
    face_id: str
    similarity: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        external_face_id = self.external_face_id

        face_id = self.face_id

        similarity = self.similarity


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "external_face_id": external_face_id,
            "face_id": face_id,
            "similarity": similarity,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        external_face_id = d.pop("external_face_id")

        face_id = d.pop("face_id")

        similarity = d.pop("similarity")

        search_hit_dto = cls(
            external_face_id=external_face_id,
            face_id=face_id,
            similarity=similarity,
        )


        search_hit_dto.additional_properties = d
        return search_hit_dto

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
