from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset







T = TypeVar("T", bound="DirectSessionCreated")



@_attrs_define
class DirectSessionCreated:
    """ A new direct session. `token` is shown once.

        Attributes:
            attempt_number (int):
            challenge_count (int):
            expires_at (int):
            max_attempts (int):
            session_id (str):  Example: 0192c0de-7a1e-7c3b-9a51-4d2e8f6b1a90.
            session_url (str):
            token (str):
     """

    attempt_number: int
    challenge_count: int
    expires_at: int
    max_attempts: int
    session_id: str
    session_url: str
    token: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        attempt_number = self.attempt_number

        challenge_count = self.challenge_count

        expires_at = self.expires_at

        max_attempts = self.max_attempts

        session_id = self.session_id

        session_url = self.session_url

        token = self.token


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt_number": attempt_number,
            "challenge_count": challenge_count,
            "expires_at": expires_at,
            "max_attempts": max_attempts,
            "session_id": session_id,
            "session_url": session_url,
            "token": token,
        })

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        attempt_number = d.pop("attempt_number")

        challenge_count = d.pop("challenge_count")

        expires_at = d.pop("expires_at")

        max_attempts = d.pop("max_attempts")

        session_id = d.pop("session_id")

        session_url = d.pop("session_url")

        token = d.pop("token")

        direct_session_created = cls(
            attempt_number=attempt_number,
            challenge_count=challenge_count,
            expires_at=expires_at,
            max_attempts=max_attempts,
            session_id=session_id,
            session_url=session_url,
            token=token,
        )


        direct_session_created.additional_properties = d
        return direct_session_created

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
