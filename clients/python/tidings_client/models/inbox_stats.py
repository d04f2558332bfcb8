from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.subscription_counts import SubscriptionCounts


T = TypeVar("T", bound="InboxStats")


@_attrs_define
class InboxStats:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            delivered (int): Distinct items ever delivered.
            unread (int): Delivered, not read, not dismissed.
            saved (int): Saved (for an item: whether you saved it; for counts: how many).
            not_interested (int): Marked not interested (for an item: whether; for counts: how many).
            by_subscription (list[SubscriptionCounts]): The same counts per subscription.
    """

    delivered: int
    unread: int
    saved: int
    not_interested: int
    by_subscription: list[SubscriptionCounts]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivered = self.delivered

        unread = self.unread

        saved = self.saved

        not_interested = self.not_interested

        by_subscription = []
        for by_subscription_item_data in self.by_subscription:
            by_subscription_item = by_subscription_item_data.to_dict()
            by_subscription.append(by_subscription_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "delivered": delivered,
                "unread": unread,
                "saved": saved,
                "not_interested": not_interested,
                "by_subscription": by_subscription,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.subscription_counts import SubscriptionCounts  # noqa: PLC0415

        d = dict(src_dict)
        delivered = d.pop("delivered")

        unread = d.pop("unread")

        saved = d.pop("saved")

        not_interested = d.pop("not_interested")

        by_subscription = []
        _by_subscription = d.pop("by_subscription")
        for by_subscription_item_data in _by_subscription:
            by_subscription_item = SubscriptionCounts.from_dict(
                by_subscription_item_data
            )

            by_subscription.append(by_subscription_item)

        inbox_stats = cls(
            delivered=delivered,
            unread=unread,
            saved=saved,
            not_interested=not_interested,
            by_subscription=by_subscription,
        )

        inbox_stats.additional_properties = d
        return inbox_stats

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
