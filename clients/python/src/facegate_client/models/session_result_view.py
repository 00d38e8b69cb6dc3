from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.match_view import MatchView
  from ..models.requirement_view import RequirementView
  from ..models.session_result_view_layers_type_0 import SessionResultViewLayersType0





T = TypeVar("T", bound="SessionResultView")



@_attrs_define
class SessionResultView:
    """ `GET /api/v1/session/{id}/result`.

        Attributes:
            session_id (str):  Example: 0192c0de-7a1e-7c3b-9a51-4d2e8f6b1a90.
            status (str): `created`, `in_progress` or `completed` (an expired session answers 404). A session
                whose client was sent the `verdict` reads `completed`: the verdict is stored before it
                is sent. Example: completed.
            completed_at (int | None | Unset):
            created_at (int | Unset): Unix milliseconds.
            expires_at (int | Unset):
            kind (str | Unset):  Example: managed.
            layers (None | SessionResultViewLayersType0 | Unset): The verdict's evidence: `end_reason` and `layers`, each
                with `layer`, `score` (0..1),
                `reason` and `evidence` (`measured`, `attack`, or `none` where the layer could not
                judge; only `attack` fails a session on its own).
            liveness_path (None | str | Unset): `light` (the screen's colours were shown and judged) or `no_flash` (head
                turns and
                motion, no colours: the person chose the path, or the deployment's light check is
                off); null until completed. Example: light.
            match (MatchView | None | Unset):
            mode (str | Unset):  Example: passive.
            photo_quality (list[RequirementView] | None | Unset): After a `pass`: the portrait checked requirement by
                requirement (ICAO 9303, ISO/IEC
                29794-5), each with its measured value, limit and pass/fail.
            reasons (list[str] | Unset): Stable reason codes (docs/api.md, "Reason codes"): why a `fail` or `retry` did not
                pass,
                and `portrait_requirement_failed:<requirement>` for each requirement a `pass`'s portrait
                failed. Empty for a clean `pass` and before the verdict. Example: ['screen_replay_suspected'].
            reference_id (None | str | Unset):
            confidence (float | None | Unset):
            photo_quality_score (float | None | Unset):
            photo_url (None | str | Unset): Where to download the ICAO portrait (after a `pass` only).
            verdict (None | str | Unset): `pass`, `fail` or `retry`; null until completed. Example: pass.
     """

    session_id: str
    status: str
    completed_at: int | None | Unset = UNSET
    created_at: int | Unset = UNSET
    expires_at: int | Unset = UNSET
    kind: str | Unset = UNSET
    layers: None | SessionResultViewLayersType0 | Unset = UNSET
    liveness_path: None | str | Unset = UNSET
    match: MatchView | None | Unset = UNSET
    mode: str | Unset = UNSET
    photo_quality: list[RequirementView] | None | Unset = UNSET
    reasons: list[str] | Unset = UNSET
    reference_id: None | str | Unset = UNSET
    confidence: float | None | Unset = UNSET
    photo_quality_score: float | None | Unset = UNSET
    photo_url: None | str | Unset = UNSET
    verdict: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.match_view import MatchView # noqa: PLC0415
        from ..models.requirement_view import RequirementView # noqa: PLC0415
        from ..models.session_result_view_layers_type_0 import SessionResultViewLayersType0 # noqa: PLC0415
        session_id = self.session_id

        status = self.status

        completed_at: int | None | Unset
        if isinstance(self.completed_at, Unset):
            completed_at = UNSET
        else:
            completed_at = self.completed_at

        created_at = self.created_at

        expires_at = self.expires_at

        kind = self.kind

        layers: dict[str, Any] | None | Unset
        if isinstance(self.layers, Unset):
            layers = UNSET
        elif isinstance(self.layers, SessionResultViewLayersType0):
            layers = self.layers.to_dict()
        else:
            layers = self.layers

        liveness_path: None | str | Unset
        if isinstance(self.liveness_path, Unset):
            liveness_path = UNSET
        else:
            liveness_path = self.liveness_path

        match: dict[str, Any] | None | Unset
        if isinstance(self.match, Unset):
            match = UNSET
        elif isinstance(self.match, MatchView):
            match = self.match.to_dict()
        else:
            match = self.match

        mode = self.mode

        photo_quality: list[dict[str, Any]] | None | Unset
        if isinstance(self.photo_quality, Unset):
            photo_quality = UNSET
        elif isinstance(self.photo_quality, list):
            photo_quality = []
            for photo_quality_type_0_item_data in self.photo_quality:
                photo_quality_type_0_item = photo_quality_type_0_item_data.to_dict()
                photo_quality.append(photo_quality_type_0_item)


        else:
            photo_quality = self.photo_quality

        reasons: list[str] | Unset = UNSET
        if not isinstance(self.reasons, Unset):
            reasons = self.reasons



        reference_id: None | str | Unset
        if isinstance(self.reference_id, Unset):
            reference_id = UNSET
        else:
            reference_id = self.reference_id

        confidence: float | None | Unset
        if isinstance(self.confidence, Unset):
            confidence = UNSET
        else:
            confidence = self.confidence

        photo_quality_score: float | None | Unset
        if isinstance(self.photo_quality_score, Unset):
            photo_quality_score = UNSET
        else:
            photo_quality_score = self.photo_quality_score

        photo_url: None | str | Unset
        if isinstance(self.photo_url, Unset):
            photo_url = UNSET
        else:
            photo_url = self.photo_url

        verdict: None | str | Unset
        if isinstance(self.verdict, Unset):
            verdict = UNSET
        else:
            verdict = self.verdict


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "session_id": session_id,
            "status": status,
        })
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at
        if created_at is not UNSET:
            field_dict["created_at"] = created_at
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if kind is not UNSET:
            field_dict["kind"] = kind
        if layers is not UNSET:
            field_dict["layers"] = layers
        if liveness_path is not UNSET:
            field_dict["liveness_path"] = liveness_path
        if match is not UNSET:
            field_dict["match"] = match
        if mode is not UNSET:
            field_dict["mode"] = mode
        if photo_quality is not UNSET:
            field_dict["photo_quality"] = photo_quality
        if reasons is not UNSET:
            field_dict["reasons"] = reasons
        if reference_id is not UNSET:
            field_dict["reference_id"] = reference_id
        if confidence is not UNSET:
            field_dict["confidence"] = confidence
        if photo_quality_score is not UNSET:
            field_dict["photo_quality_score"] = photo_quality_score
        if photo_url is not UNSET:
            field_dict["photo_url"] = photo_url
        if verdict is not UNSET:
            field_dict["verdict"] = verdict

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.match_view import MatchView # noqa: PLC0415
        from ..models.requirement_view import RequirementView # noqa: PLC0415
        from ..models.session_result_view_layers_type_0 import SessionResultViewLayersType0 # noqa: PLC0415
        d = dict(src_dict)
        session_id = d.pop("session_id")

        status = d.pop("status")

        def _parse_completed_at(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        completed_at = _parse_completed_at(d.pop("completed_at", UNSET))


        created_at = d.pop("created_at", UNSET)

        expires_at = d.pop("expires_at", UNSET)

        kind = d.pop("kind", UNSET)

        def _parse_layers(data: object) -> None | SessionResultViewLayersType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                layers_type_0 = SessionResultViewLayersType0.from_dict(data)



                return layers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SessionResultViewLayersType0 | Unset, data)

        layers = _parse_layers(d.pop("layers", UNSET))


        def _parse_liveness_path(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        liveness_path = _parse_liveness_path(d.pop("liveness_path", UNSET))


        def _parse_match(data: object) -> MatchView | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                match_type_1 = MatchView.from_dict(data)



                return match_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchView | None | Unset, data)

        match = _parse_match(d.pop("match", UNSET))


        mode = d.pop("mode", UNSET)

        def _parse_photo_quality(data: object) -> list[RequirementView] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                photo_quality_type_0 = []
                _photo_quality_type_0 = data
                for photo_quality_type_0_item_data in (_photo_quality_type_0):
                    photo_quality_type_0_item = RequirementView.from_dict(photo_quality_type_0_item_data)



                    photo_quality_type_0.append(photo_quality_type_0_item)

                return photo_quality_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[RequirementView] | None | Unset, data)

        photo_quality = _parse_photo_quality(d.pop("photo_quality", UNSET))


        reasons = cast(list[str], d.pop("reasons", UNSET))


        def _parse_reference_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference_id = _parse_reference_id(d.pop("reference_id", UNSET))


        def _parse_confidence(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        confidence = _parse_confidence(d.pop("confidence", UNSET))


        def _parse_photo_quality_score(data: object) -> float | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(float | None | Unset, data)

        photo_quality_score = _parse_photo_quality_score(d.pop("photo_quality_score", UNSET))


        def _parse_photo_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        photo_url = _parse_photo_url(d.pop("photo_url", UNSET))


        def _parse_verdict(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        verdict = _parse_verdict(d.pop("verdict", UNSET))


        session_result_view = cls(
            session_id=session_id,
            status=status,
            completed_at=completed_at,
            created_at=created_at,
            expires_at=expires_at,
            kind=kind,
            layers=layers,
            liveness_path=liveness_path,
            match=match,
            mode=mode,
            photo_quality=photo_quality,
            reasons=reasons,
            reference_id=reference_id,
            confidence=confidence,
            photo_quality_score=photo_quality_score,
            photo_url=photo_url,
            verdict=verdict,
        )


        session_result_view.additional_properties = d
        return session_result_view

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
