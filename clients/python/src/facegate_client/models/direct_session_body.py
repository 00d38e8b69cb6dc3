from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.session_mode_name import SessionModeName
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="DirectSessionBody")



@_attrs_define
class DirectSessionBody:
    """ `POST /api/v1/session` body; `{}` or no body at all is accepted.

        Attributes:
            captcha_token (None | str | Unset):
            fingerprint_id (None | str | Unset): The browser's fingerprint, which attempts are counted by: 1 to 256
                characters, no
                control characters.
            mode (None | SessionModeName | Unset):
     """

    captcha_token: None | str | Unset = UNSET
    fingerprint_id: None | str | Unset = UNSET
    mode: None | SessionModeName | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        captcha_token: None | str | Unset
        if isinstance(self.captcha_token, Unset):
            captcha_token = UNSET
        else:
            captcha_token = self.captcha_token

        fingerprint_id: None | str | Unset
        if isinstance(self.fingerprint_id, Unset):
            fingerprint_id = UNSET
        else:
            fingerprint_id = self.fingerprint_id

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        elif isinstance(self.mode, SessionModeName):
            mode = self.mode.value
        else:
            mode = self.mode


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if captcha_token is not UNSET:
            field_dict["captcha_token"] = captcha_token
        if fingerprint_id is not UNSET:
            field_dict["fingerprint_id"] = fingerprint_id
        if mode is not UNSET:
            field_dict["mode"] = mode

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_captcha_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        captcha_token = _parse_captcha_token(d.pop("captcha_token", UNSET))


        def _parse_fingerprint_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        fingerprint_id = _parse_fingerprint_id(d.pop("fingerprint_id", UNSET))


        def _parse_mode(data: object) -> None | SessionModeName | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                mode_type_1 = SessionModeName(data)



                return mode_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionModeName | Unset, data)

        mode = _parse_mode(d.pop("mode", UNSET))


        direct_session_body = cls(
            captcha_token=captcha_token,
            fingerprint_id=fingerprint_id,
            mode=mode,
        )

        return direct_session_body

