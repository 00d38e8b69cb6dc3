from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.collection_dto import CollectionDto





T = TypeVar("T", bound="CollectionList")



@_attrs_define
class CollectionList:
    """ 
        Attributes:
            collections (list[CollectionDto]):
            next_token (None | str | Unset):
     """

    collections: list[CollectionDto]
    next_token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.collection_dto import CollectionDto # noqa: PLC0415
        collections = []
        for collections_item_data in self.collections:
            collections_item = collections_item_data.to_dict()
            collections.append(collections_item)



        next_token: None | str | Unset
        if isinstance(self.next_token, Unset):
            next_token = UNSET
        else:
            next_token = self.next_token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "collections": collections,
        })
        if next_token is not UNSET:
            field_dict["next_token"] = next_token

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.collection_dto import CollectionDto # noqa: PLC0415
        d = dict(src_dict)
        collections = []
        _collections = d.pop("collections")
        for collections_item_data in (_collections):
            collections_item = CollectionDto.from_dict(collections_item_data)



            collections.append(collections_item)


        def _parse_next_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_token = _parse_next_token(d.pop("next_token", UNSET))


        collection_list = cls(
            collections=collections,
            next_token=next_token,
        )


        collection_list.additional_properties = d
        return collection_list

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
