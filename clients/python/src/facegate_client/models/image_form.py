from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..types import File, FileTypes
from io import BytesIO






T = TypeVar("T", bound="ImageForm")



@_attrs_define
class ImageForm:
    """ One image in the multipart field `image` (JPEG, PNG or WebP, at most 8 MB).

        Attributes:
            image (File):
     """

    image: File





    def to_dict(self) -> dict[str, Any]:
        image = self.image.to_tuple()



        field_dict: dict[str, Any] = {}

        field_dict.update({
            "image": image,
        })

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("image", self.image.to_tuple()))





        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        image = File(
             payload = BytesIO(d.pop("image"))
        )




        image_form = cls(
            image=image,
        )

        return image_form

