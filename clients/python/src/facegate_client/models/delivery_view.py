from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, BinaryIO, TextIO, TYPE_CHECKING, Generator

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

from ..types import UNSET, Unset
from typing import cast

if TYPE_CHECKING:
  from ..models.delivery_view_attempt_log_item import DeliveryViewAttemptLogItem





T = TypeVar("T", bound="DeliveryView")



@_attrs_define
class DeliveryView:
    """ One webhook delivery and its attempts.

        Attributes:
            attempt_log (list[DeliveryViewAttemptLogItem]):
            attempts (int):
            status (str):  Example: delivered.
            url (str):
            webhook_id (str): The `webhook-id` header of every attempt.
            next_attempt_at (int | None | Unset):
     """

    attempt_log: list[DeliveryViewAttemptLogItem]
    attempts: int
    status: str
    url: str
    webhook_id: str
    next_attempt_at: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)





    def to_dict(self) -> dict[str, Any]:
        from ..models.delivery_view_attempt_log_item import DeliveryViewAttemptLogItem # noqa: PLC0415
        attempt_log = []
        for attempt_log_item_data in self.attempt_log:
            attempt_log_item = attempt_log_item_data.to_dict()
            attempt_log.append(attempt_log_item)



        attempts = self.attempts

        status = self.status

        url = self.url

        webhook_id = self.webhook_id

        next_attempt_at: int | None | Unset
        if isinstance(self.next_attempt_at, Unset):
            next_attempt_at = UNSET
        else:
            next_attempt_at = self.next_attempt_at


        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({
            "attempt_log": attempt_log,
            "attempts": attempts,
            "status": status,
            "url": url,
            "webhook_id": webhook_id,
        })
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at

        return field_dict



    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery_view_attempt_log_item import DeliveryViewAttemptLogItem # noqa: PLC0415
        d = dict(src_dict)
        attempt_log = []
        _attempt_log = d.pop("attempt_log")
        for attempt_log_item_data in (_attempt_log):
            attempt_log_item = DeliveryViewAttemptLogItem.from_dict(attempt_log_item_data)



            attempt_log.append(attempt_log_item)


        attempts = d.pop("attempts")

        status = d.pop("status")

        url = d.pop("url")

        webhook_id = d.pop("webhook_id")

        def _parse_next_attempt_at(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at", UNSET))


        delivery_view = cls(
            attempt_log=attempt_log,
            attempts=attempts,
            status=status,
            url=url,
            webhook_id=webhook_id,
            next_attempt_at=next_attempt_at,
        )


        delivery_view.additional_properties = d
        return delivery_view

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
