from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.face_model import FaceModel
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="CreateCollection")



@_attrs_define
class CreateCollection:
    """ The body of `POST /api/v2/collections`.

        Attributes:
            external_id (str): 1-255 characters of `[A-Za-z0-9_.:-]`, unique within the tenant.
            description (str | Unset): Free text, at most 1024 characters.
            face_model (FaceModel | None | Unset):
     """

    external_id: str
    description: str | Unset = UNSET
    face_model: FaceModel | None | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        external_id = self.external_id

        description = self.description

        face_model: None | str | Unset
        if isinstance(self.face_model, Unset):
            face_model = UNSET
        elif isinstance(self.face_model, FaceModel):
            face_model = self.face_model.value
        else:
            face_model = self.face_model


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "external_id": external_id,
        })
        if description is not UNSET:
            field_dict["description"] = description
        if face_model is not UNSET:
            field_dict["face_model"] = face_model

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        external_id = d.pop("external_id")

        description = d.pop("description", UNSET)

        def _parse_face_model(data: object) -> FaceModel | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                face_model_type_1 = FaceModel(data)



                return face_model_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FaceModel | None | Unset, data)

        face_model = _parse_face_model(d.pop("face_model", UNSET))


        create_collection = cls(
            external_id=external_id,
            description=description,
            face_model=face_model,
        )

        return create_collection

