from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="CompareV1Response")



@_attrs_define
class CompareV1Response:
    """ v1 compare result: exactly the spec's fields.

        Attributes:
            is_match (bool):
            similarity (float):
            threshold (float):
     """

    is_match: bool
    similarity: float
    threshold: float
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        is_match = self.is_match

        similarity = self.similarity

        threshold = self.threshold


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "is_match": is_match,
            "similarity": similarity,
            "threshold": threshold,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        is_match = d.pop("is_match")

        similarity = d.pop("similarity")

        threshold = d.pop("threshold")

        compare_v1_response = cls(
            is_match=is_match,
            similarity=similarity,
            threshold=threshold,
        )


        compare_v1_response.additional_properties = d
        return compare_v1_response

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
