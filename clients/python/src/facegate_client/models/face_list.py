from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.indexed_face_dto import IndexedFaceDto





T = TypeVar("T", bound="FaceList")



@_attrs_define
class FaceList:
    """ 
        Attributes:
            faces (list[IndexedFaceDto]):
            next_token (None | str | Unset):
     """

    faces: list[IndexedFaceDto]
    next_token: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.indexed_face_dto import IndexedFaceDto # noqa: PLC0415
        faces = []
        for faces_item_data in self.faces:
            faces_item = faces_item_data.to_dict()
            faces.append(faces_item)



        next_token: None | str | Unset
        if isinstance(self.next_token, Unset):
            next_token = UNSET
        else:
            next_token = self.next_token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "faces": faces,
        })
        if next_token is not UNSET:
            field_dict["next_token"] = next_token

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.indexed_face_dto import IndexedFaceDto # noqa: PLC0415
        d = dict(src_dict)
        faces = []
        _faces = d.pop("faces")
        for faces_item_data in (_faces):
            faces_item = IndexedFaceDto.from_dict(faces_item_data)



            faces.append(faces_item)


        def _parse_next_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_token = _parse_next_token(d.pop("next_token", UNSET))


        face_list = cls(
            faces=faces,
            next_token=next_token,
        )


        face_list.additional_properties = d
        return face_list

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
