from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ClientMessageType6Data")



@_attrs_define
class ClientMessageType6Data:
    """ The final decision. `redirect_url` (managed sessions with one) is where to send the
    user: the caller's URL with `session_id` added, and nothing else.

        Attributes:
            confidence (float):
            verdict (str):  Example: pass.
            redirect_url (None | str | Unset):
     """

    confidence: float
    verdict: str
    redirect_url: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        confidence = self.confidence

        verdict = self.verdict

        redirect_url: None | str | Unset
        if isinstance(self.redirect_url, Unset):
            redirect_url = UNSET
        else:
            redirect_url = self.redirect_url


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "confidence": confidence,
            "verdict": verdict,
        })
        if redirect_url is not UNSET:
            field_dict["redirect_url"] = redirect_url

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        confidence = d.pop("confidence")

        verdict = d.pop("verdict")

        def _parse_redirect_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        redirect_url = _parse_redirect_url(d.pop("redirect_url", UNSET))


        client_message_type_6_data = cls(
            confidence=confidence,
            verdict=verdict,
            redirect_url=redirect_url,
        )


        client_message_type_6_data.additional_properties = d
        return client_message_type_6_data

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
