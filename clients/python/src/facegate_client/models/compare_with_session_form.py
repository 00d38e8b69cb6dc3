from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field
import json
from .. import types

from ..types import UNSET, Unset

from ..types import File, FileTypes
from ..types import UNSET, Unset
from io import BytesIO






T = TypeVar("T", bound="CompareWithSessionForm")



@_attrs_define
class CompareWithSessionForm:
    """ A probe image, the session whose portrait it is compared with, an optional `threshold`
    (default 0.65, as compare-faces) and, for a direct session, its `token` (a managed session
    takes its tenant's API key instead).

        Attributes:
            probe (File):
            session_id (str):
            threshold (float | Unset):  Default: 0.65.
            token (str | Unset):
     """

    probe: File
    session_id: str
    threshold: float | Unset = 0.65
    token: str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        probe = self.probe.to_tuple()


        session_id = self.session_id

        threshold = self.threshold

        token = self.token


        field_dict: dict[str, Any] = {}

        field_dict.update({
            "probe": probe,
            "session_id": session_id,
        })
        if threshold is not UNSET:
            field_dict["threshold"] = threshold
        if token is not UNSET:
            field_dict["token"] = token

        return field_dict


    def to_multipart(self) -> types.RequestFiles:
        files: types.RequestFiles = []

        files.append(("probe", self.probe.to_tuple()))



        files.append(("session_id", (None, str(self.session_id).encode(), "text/plain")))



        if not isinstance(self.threshold, Unset):
            files.append(("threshold", (None, str(self.threshold).encode(), "text/plain")))



        if not isinstance(self.token, Unset):
            files.append(("token", (None, str(self.token).encode(), "text/plain")))





        return files


    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        probe = File(
             payload = BytesIO(d.pop("probe"))
        )




        session_id = d.pop("session_id")

        threshold = d.pop("threshold", UNSET)

        token = d.pop("token", UNSET)

        compare_with_session_form = cls(
            probe=probe,
            session_id=session_id,
            threshold=threshold,
            token=token,
        )

        return compare_with_session_form

