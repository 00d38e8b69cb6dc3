from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..models.face_model import FaceModel
from ..models.session_mode_name import SessionModeName
from ..types import UNSET, Unset
from typing import cast






T = TypeVar("T", bound="ManagedSessionBody")



@_attrs_define
class ManagedSessionBody:
    """ `POST /api/v1/managed-session` body.

        Attributes:
            allow_no_flash (bool | None | Unset): Whether the verification page offers a person sensitive to flashing light
                the
                no-flash path (head turns instead of the screen's colours; the result, webhook and
                session list say `liveness_path`). Default: the deployment's
                `liveness.illumination.allow_no_flash` (on); `true` where the deployment turned it
                off is `no_flash_disabled`. Example: True.
            face_model (FaceModel | None | Unset):
            match_threshold (float | None | Unset): Similarity (0..1) from which the portrait matches `reference_image`;
                default 0.65. Example: 0.65.
            mode (None | SessionModeName | Unset):
            redirect_url (None | str | Unset): Where the user goes after the verdict (`https`, public); `session_id` is
                added. The
                pattern states what needs no lookup: `https`, a host with a dot (or a bracketed IPv6
                literal), no credentials. Example: https://bank.example/onboarding/done.
            reference_id (None | str | Unset): Your identifier, echoed in the result and webhook: 1 to 256 characters, no
                control
                characters.
            reference_image (None | str | Unset): Liveness with verify: the customer's ID photo (JPEG, PNG or WebP, at most
                8 MB), base64
                with the standard alphabet, padded. After a `pass` the ICAO portrait is compared with it
                and the result read with the API key, and the webhook, carry `match`. Only the face's
                embedding is kept, until the session completes or expires.
            webhook_url (None | str | Unset): Receives the signed verdict (`https`, public, a host that resolves).
     """

    allow_no_flash: bool | None | Unset = UNSET
    face_model: FaceModel | None | Unset = UNSET
    match_threshold: float | None | Unset = UNSET
    mode: None | SessionModeName | Unset = UNSET
    redirect_url: None | str | Unset = UNSET
    reference_id: None | str | Unset = UNSET
    reference_image: None | str | Unset = UNSET
    webhook_url: None | str | Unset = UNSET





    def to_dict(self) -> dict[str, Any]:
        allow_no_flash: bool | None | Unset
        if isinstance(self.allow_no_flash, Unset):
            allow_no_flash = UNSET
        else:
            allow_no_flash = self.allow_no_flash

        face_model: None | str | Unset
        if isinstance(self.face_model, Unset):
            face_model = UNSET
        elif isinstance(self.face_model, FaceModel):
            face_model = self.face_model.value
        else:
            face_model = self.face_model

        match_threshold: float | None | Unset
        if isinstance(self.match_threshold, Unset):
            match_threshold = UNSET
        else:
            match_threshold = self.match_threshold

        mode: None | str | Unset
        if isinstance(self.mode, Unset):
            mode = UNSET
        elif isinstance(self.mode, SessionModeName):
            mode = self.mode.value
        else:
            mode = self.mode

        redirect_url: None | str | Unset
        if isinstance(self.redirect_url, Unset):
            redirect_url = UNSET
        else:
            redirect_url = self.redirect_url

        reference_id: None | str | Unset
        if isinstance(self.reference_id, Unset):
            reference_id = UNSET
        else:
            reference_id = self.reference_id

        reference_image: None | str | Unset
        if isinstance(self.reference_image, Unset):
            reference_image = UNSET
        else:
            reference_image = self.reference_image

        webhook_url: None | str | Unset
        if isinstance(self.webhook_url, Unset):
            webhook_url = UNSET
        else:
            webhook_url = self.webhook_url


        field_dict: dict[str, Any] = {}

        field_dict.update({
        })
        if allow_no_flash is not UNSET:
            field_dict["allow_no_flash"] = allow_no_flash
        if face_model is not UNSET:
            field_dict["face_model"] = face_model
        if match_threshold is not UNSET:
            field_dict["match_threshold"] = match_threshold
        if mode is not UNSET:
            field_dict["mode"] = mode
        if redirect_url is not UNSET:
            field_dict["redirect_url"] = redirect_url
        if reference_id is not UNSET:
            field_dict["reference_id"] = reference_id
        if reference_image is not UNSET:
            field_dict["reference_image"] = reference_image
        if webhook_url is not UNSET:
            field_dict["webhook_url"] = webhook_url

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        def _parse_allow_no_flash(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        allow_no_flash = _parse_allow_no_flash(d.pop("allow_no_flash", UNSET))


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


        def _parse_match_threshold(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        match_threshold = _parse_match_threshold(d.pop("match_threshold", UNSET))


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


        def _parse_redirect_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        redirect_url = _parse_redirect_url(d.pop("redirect_url", UNSET))


        def _parse_reference_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference_id = _parse_reference_id(d.pop("reference_id", UNSET))


        def _parse_reference_image(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference_image = _parse_reference_image(d.pop("reference_image", UNSET))


        def _parse_webhook_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        webhook_url = _parse_webhook_url(d.pop("webhook_url", UNSET))


        managed_session_body = cls(
            allow_no_flash=allow_no_flash,
            face_model=face_model,
            match_threshold=match_threshold,
            mode=mode,
            redirect_url=redirect_url,
            reference_id=reference_id,
            reference_image=reference_image,
            webhook_url=webhook_url,
        )

        return managed_session_body

