from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="RequirementView")



@_attrs_define
class RequirementView:
    """ One portrait requirement as the API-key result shows it.

        Attributes:
            passed (bool):
            requirement (str): `head_size`, `margins`, `eye_line`, `yaw`, `pitch`, `roll`, `eyes_open`,
                `mouth_closed`, `sharpness`, `exposure`, `illumination_uniformity`,
                `background_uniformity`, `single_face`, `eyes_visible` or `lower_face_visible`. Example: eyes_visible.
            value (float): The measured value (units per requirement: docs/accuracy.md).
            max_ (float | None | Unset):
            min_ (float | None | Unset):
     """

    passed: bool
    requirement: str
    value: float
    max_: float | None | Unset = UNSET
    min_: float | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        passed = self.passed

        requirement = self.requirement

        value = self.value

        max_: float | None | Unset
        if isinstance(self.max_, Unset):
            max_ = UNSET
        else:
            max_ = self.max_

        min_: float | None | Unset
        if isinstance(self.min_, Unset):
            min_ = UNSET
        else:
            min_ = self.min_


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "passed": passed,
            "requirement": requirement,
            "value": value,
        })
        if max_ is not UNSET:
            field_dict["max"] = max_
        if min_ is not UNSET:
            field_dict["min"] = min_

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        passed = d.pop("passed")

        requirement = d.pop("requirement")

        value = d.pop("value")

        def _parse_max_(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        max_ = _parse_max_(d.pop("max", UNSET))


        def _parse_min_(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        min_ = _parse_min_(d.pop("min", UNSET))


        requirement_view = cls(
            passed=passed,
            requirement=requirement,
            value=value,
            max_=max_,
            min_=min_,
        )


        requirement_view.additional_properties = d
        return requirement_view

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
