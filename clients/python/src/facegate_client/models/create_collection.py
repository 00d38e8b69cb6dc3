from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset






T = TypeVar("T", bound="CreateCollection")



@_attrs_define
class CreateCollection:
    """ The body of `POST /api/v2/collections`.

        Attributes:
            external_id (str): 1-255 characters of `[A-Za-z0-9_.:-]`, unique within the tenant.
            description (str | Unset): Free text, at most 1024 characters.
     """

    external_id: str
    description: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        external_id = self.external_id

        description = self.description


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "external_id": external_id,
        })
        if description is not UNSET:
            field_dict["description"] = description

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        external_id = d.pop("external_id")

        description = d.pop("description", UNSET)

        create_collection = cls(
            external_id=external_id,
            description=description,
        )

        return create_collection

