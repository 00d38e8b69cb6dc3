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
  from ..models.result_detail_layers_type_0 import ResultDetailLayersType0





T = TypeVar("T", bound="ResultDetail")



@_attrs_define
class ResultDetail:
    """ What the tenant's backend sees beyond the spec's fields (never the browser).

        Attributes:
            created_at (int): Unix milliseconds.
            expires_at (int):
            kind (str):  Example: managed.
            mode (str):  Example: passive.
            reasons (list[str]): Stable reason codes (docs/api.md, "Reason codes"): why a `fail` or `retry` did not pass,
                and `portrait_requirement_failed:<requirement>` for each requirement a `pass`'s portrait
                failed. Empty for a clean `pass` and before the verdict. Example: ['screen_replay_suspected'].
            completed_at (int | None | Unset):
            layers (None | ResultDetailLayersType0 | Unset): The verdict's evidence: `end_reason` and `layers`, each with
                `layer`, `score` (0..1),
                `reason` and `evidence` (`measured`, `attack`, or `none` where the layer could not
                judge; only `attack` fails a session on its own).
            liveness_path (None | str | Unset): `light` (the screen's colours were shown and judged) or `no_flash` (head
                turns and
                motion, no colours: the person chose the path, or the deployment's light check is
                off); null until completed. Example: light.
            match (MatchView | None | Unset):
            photo_quality (list[RequirementView] | None | Unset): After a `pass`: the portrait checked requirement by
                requirement (ICAO 9303, ISO/IEC
                29794-5), each with its measured value, limit and pass/fail.
            reference_id (None | str | Unset):
     """

    created_at: int
    expires_at: int
    kind: str
    mode: str
    reasons: list[str]
    completed_at: int | None | Unset = UNSET
    layers: None | ResultDetailLayersType0 | Unset = UNSET
    liveness_path: None | str | Unset = UNSET
    match: MatchView | None | Unset = UNSET
    photo_quality: list[RequirementView] | None | Unset = UNSET
    reference_id: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.match_view import MatchView # noqa: PLC0415
        from ..models.requirement_view import RequirementView # noqa: PLC0415
        from ..models.result_detail_layers_type_0 import ResultDetailLayersType0 # noqa: PLC0415
        created_at = self.created_at

        expires_at = self.expires_at

        kind = self.kind

        mode = self.mode

        reasons = self.reasons



        completed_at: int | None | Unset
        if isinstance(self.completed_at, Unset):
            completed_at = UNSET
        else:
            completed_at = self.completed_at

        layers: dict[str, Any] | None | Unset
        if isinstance(self.layers, Unset):
            layers = UNSET
        elif isinstance(self.layers, ResultDetailLayersType0):
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

        reference_id: None | str | Unset
        if isinstance(self.reference_id, Unset):
            reference_id = UNSET
        else:
            reference_id = self.reference_id


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "created_at": created_at,
            "expires_at": expires_at,
            "kind": kind,
            "mode": mode,
            "reasons": reasons,
        })
        if completed_at is not UNSET:
            field_dict["completed_at"] = completed_at
        if layers is not UNSET:
            field_dict["layers"] = layers
        if liveness_path is not UNSET:
            field_dict["liveness_path"] = liveness_path
        if match is not UNSET:
            field_dict["match"] = match
        if photo_quality is not UNSET:
            field_dict["photo_quality"] = photo_quality
        if reference_id is not UNSET:
            field_dict["reference_id"] = reference_id

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.match_view import MatchView # noqa: PLC0415
        from ..models.requirement_view import RequirementView # noqa: PLC0415
        from ..models.result_detail_layers_type_0 import ResultDetailLayersType0 # noqa: PLC0415
        d = dict(src_dict)
        created_at = d.pop("created_at")

        expires_at = d.pop("expires_at")

        kind = d.pop("kind")

        mode = d.pop("mode")

        reasons = cast(list[str], d.pop("reasons"))


        def _parse_completed_at(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        completed_at = _parse_completed_at(d.pop("completed_at", UNSET))


        def _parse_layers(data: object) -> None | ResultDetailLayersType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                layers_type_0 = ResultDetailLayersType0.from_dict(data)



                return layers_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ResultDetailLayersType0 | Unset, data)

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


        def _parse_reference_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reference_id = _parse_reference_id(d.pop("reference_id", UNSET))


        result_detail = cls(
            created_at=created_at,
            expires_at=expires_at,
            kind=kind,
            mode=mode,
            reasons=reasons,
            completed_at=completed_at,
            layers=layers,
            liveness_path=liveness_path,
            match=match,
            photo_quality=photo_quality,
            reference_id=reference_id,
        )


        result_detail.additional_properties = d
        return result_detail

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
