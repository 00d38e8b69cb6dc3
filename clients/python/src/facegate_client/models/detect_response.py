from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from typing import cast

if TYPE_CHECKING:
  from ..models.face_dto import FaceDto
  from ..models.image_size import ImageSize





T = TypeVar("T", bound="DetectResponse")



@_attrs_define
class DetectResponse:
    """ 
        Attributes:
            faces (list[FaceDto]):
            image (ImageSize):
     """

    faces: list[FaceDto]
    image: ImageSize
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.face_dto import FaceDto # noqa: PLC0415
        from ..models.image_size import ImageSize # noqa: PLC0415
        faces = []
        for faces_item_data in self.faces:
            faces_item = faces_item_data.to_dict()
            faces.append(faces_item)



        image = self.image.to_dict()


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "faces": faces,
            "image": image,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.face_dto import FaceDto # noqa: PLC0415
        from ..models.image_size import ImageSize # noqa: PLC0415
        d = dict(src_dict)
        faces = []
        _faces = d.pop("faces")
        for faces_item_data in (_faces):
            faces_item = FaceDto.from_dict(faces_item_data)



            faces.append(faces_item)


        image = ImageSize.from_dict(d.pop("image"))




        detect_response = cls(
            faces=faces,
            image=image,
        )


        detect_response.additional_properties = d
        return detect_response

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
