from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.face_dto import FaceDto
  from ..models.search_hit_dto import SearchHitDto





T = TypeVar("T", bound="SearchResponse")



@_attrs_define
class SearchResponse:
    """ 
        Attributes:
            hits (list[SearchHitDto]):
            searched_face (FaceDto | None | Unset):
            searched_face_id (None | str | Unset):
     """

    hits: list[SearchHitDto]
    searched_face: FaceDto | None | Unset = UNSET
    searched_face_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.face_dto import FaceDto # noqa: PLC0415
        from ..models.search_hit_dto import SearchHitDto # noqa: PLC0415
        hits = []
        for hits_item_data in self.hits:
            hits_item = hits_item_data.to_dict()
            hits.append(hits_item)



        searched_face: dict[str, Any] | None | Unset
        if isinstance(self.searched_face, Unset):
            searched_face = UNSET
        elif isinstance(self.searched_face, FaceDto):
            searched_face = self.searched_face.to_dict()
        else:
            searched_face = self.searched_face

        searched_face_id: None | str | Unset
        if isinstance(self.searched_face_id, Unset):
            searched_face_id = UNSET
        else:
            searched_face_id = self.searched_face_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "hits": hits,
        })
        if searched_face is not UNSET:
            field_dict["searched_face"] = searched_face
        if searched_face_id is not UNSET:
            field_dict["searched_face_id"] = searched_face_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.face_dto import FaceDto # noqa: PLC0415
        from ..models.search_hit_dto import SearchHitDto # noqa: PLC0415
        d = dict(src_dict)
        hits = []
        _hits = d.pop("hits")
        for hits_item_data in (_hits):
            hits_item = SearchHitDto.from_dict(hits_item_data)



            hits.append(hits_item)


        def _parse_searched_face(data: object) -> FaceDto | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                searched_face_type_1 = FaceDto.from_dict(data)



                return searched_face_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FaceDto | None | Unset, data)

        searched_face = _parse_searched_face(d.pop("searched_face", UNSET))


        def _parse_searched_face_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        searched_face_id = _parse_searched_face_id(d.pop("searched_face_id", UNSET))


        search_response = cls(
            hits=hits,
            searched_face=searched_face,
            searched_face_id=searched_face_id,
        )


        search_response.additional_properties = d
        return search_response

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
