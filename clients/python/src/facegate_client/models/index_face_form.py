from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..models.quality_filter_name import QualityFilterName
from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO
from typing import cast






T = TypeVar("T", bound="IndexFaceForm")



@_attrs_define
class IndexFaceForm:
    """ The face to index, its caller-side id, and whether low-quality faces are refused
    (`auto`, the default) or indexed anyway (`none`).

        Attributes:
            external_face_id (str):
            image (File):
            quality_filter (None | QualityFilterName | Unset):
     """

    external_face_id: str
    image: File
    quality_filter: None | QualityFilterName | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        external_face_id = self.external_face_id

        image = self.image.to_tuple()


        quality_filter: None | str | Unset
        if isinstance(self.quality_filter, Unset):
            quality_filter = UNSET
        elif isinstance(self.quality_filter, QualityFilterName):
            quality_filter = self.quality_filter.value
        else:
            quality_filter = self.quality_filter


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "external_face_id": external_face_id,
            "image": image,
        })
        if quality_filter is not UNSET:
            field_dict["quality_filter"] = quality_filter

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("external_face_id", (None, str(self.external_face_id).encode(), "text/plain")))



        files.append(("image", self.image.to_tuple()))



        if not isinstance(self.quality_filter, Unset):
            if self.quality_filter is None:

                files.append(("quality_filter", (None, str(self.quality_filter).encode(), "text/plain")))
            else:
                files.append(("quality_filter",  (None, str(self.quality_filter.value).encode(), "text/plain")))




        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        external_face_id = d.pop("external_face_id")

        image = File(
             payload = BytesIO(d.pop("image"))
        )




        def _parse_quality_filter(data: object) -> None | QualityFilterName | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                quality_filter_type_1 = QualityFilterName(data)



                return quality_filter_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QualityFilterName | Unset, data)

        quality_filter = _parse_quality_filter(d.pop("quality_filter", UNSET))


        index_face_form = cls(
            external_face_id=external_face_id,
            image=image,
            quality_filter=quality_filter,
        )

        return index_face_form

