from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast






T = TypeVar("T", bound="ClientMessageType1Data")



@_attrs_define
class ClientMessageType1Data:
    """ Sent once per session, right after `ready` on its first connection: the page shows
    `colors[k]` around the face oval from `receipt + k × step_ms` on
    (`{"colors": ["#rrggbb", …], "step_ms": N}`).

        Attributes:
            colors (list[str]):  Example: ['#00ffff', '#ffb000', '#3050ff', '#ffffff', '#00ff00', '#ff00ff', '#ffff00',
                '#8000ff'].
            step_ms (int):  Example: 360.
     """

    colors: list[str]
    step_ms: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        colors = self.colors



        step_ms = self.step_ms


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "colors": colors,
            "step_ms": step_ms,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        colors = cast(list[str], d.pop("colors"))


        step_ms = d.pop("step_ms")

        client_message_type_1_data = cls(
            colors=colors,
            step_ms=step_ms,
        )


        client_message_type_1_data.additional_properties = d
        return client_message_type_1_data

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
