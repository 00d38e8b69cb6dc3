from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ManagedSessionCreated")



@_attrs_define
class ManagedSessionCreated:
    """ A new managed session. `token` is shown once.

        Attributes:
            expires_at (int): Unix milliseconds.
            mode (str):  Example: passive.
            session_id (str):  Example: 0192c0de-7a1e-7c3b-9a51-4d2e8f6b1a90.
            session_url (str):
            status (str):  Example: created.
            token (str):
            reference_id (None | str | Unset):
     """

    expires_at: int
    mode: str
    session_id: str
    session_url: str
    status: str
    token: str
    reference_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        expires_at = self.expires_at

        mode = self.mode

        session_id = self.session_id

        session_url = self.session_url

        status = self.status

        token = self.token

        reference_id: None | str | Unset
        if isinstance(self.reference_id, Unset):
            reference_id = UNSET
        else:
            reference_id = self.reference_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "expires_at": expires_at,
            "mode": mode,
            "session_id": session_id,
            "session_url": session_url,
            "status": status,
            "token": token,
        })
        if reference_id is not UNSET:
            field_dict["reference_id"] = reference_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        expires_at = d.pop("expires_at")

        mode = d.pop("mode")

        session_id = d.pop("session_id")

        session_url = d.pop("session_url")

        status = d.pop("status")

        token = d.pop("token")

        def _parse_reference_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference_id = _parse_reference_id(d.pop("reference_id", UNSET))


        managed_session_created = cls(
            expires_at=expires_at,
            mode=mode,
            session_id=session_id,
            session_url=session_url,
            status=status,
            token=token,
            reference_id=reference_id,
        )


        managed_session_created.additional_properties = d
        return managed_session_created

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
