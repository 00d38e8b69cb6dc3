from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..models.face_model import FaceModel
from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO






T = TypeVar("T", bound="CompareV1Form")



@_attrs_define
class CompareV1Form:
    """ The v1 compare form: `reference`, `probe` and an optional `threshold` (default 0.65).

        Attributes:
            probe (File):
            reference (File):
            face_model (FaceModel | Unset): A face model (embedder). Similarities are calibrated per model, so a threshold
                means the
                same false-accept rate with either; embeddings of two models are never compared.
            threshold (float | Unset):  Default: 0.65.
     """

    probe: File
    reference: File
    face_model: FaceModel | Unset = UNSET
    threshold: float | Unset = 0.65





    def to_dict(self) -> dict[str, Any]:
        probe = self.probe.to_tuple()


        reference = self.reference.to_tuple()


        face_model: str | Unset = UNSET
        if not isinstance(self.face_model, Unset):
            face_model = self.face_model.value


        threshold = self.threshold


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "probe": probe,
            "reference": reference,
        })
        if face_model is not UNSET:
            field_dict["face_model"] = face_model
        if threshold is not UNSET:
            field_dict["threshold"] = threshold

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("probe", self.probe.to_tuple()))



        files.append(("reference", self.reference.to_tuple()))



        if not isinstance(self.face_model, Unset):
            files.append(("face_model",  (None, str(self.face_model.value).encode(), "text/plain")))



        if not isinstance(self.threshold, Unset):
            files.append(("threshold", (None, str(self.threshold).encode(), "text/plain")))





        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        probe = File(
             payload = BytesIO(d.pop("probe"))
        )




        reference = File(
             payload = BytesIO(d.pop("reference"))
        )




        _face_model = d.pop("face_model", UNSET)
        face_model: FaceModel | Unset
        if isinstance(_face_model,  Unset):
            face_model = UNSET
        else:
            face_model = FaceModel(_face_model)




        threshold = d.pop("threshold", UNSET)

        compare_v1_form = cls(
            probe=probe,
            reference=reference,
            face_model=face_model,
            threshold=threshold,
        )

        return compare_v1_form

