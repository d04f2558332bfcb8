from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.billing_stats_accounts_by_tier import BillingStatsAccountsByTier
    from ..models.billing_stats_by_kind import BillingStatsByKind
    from ..models.billing_stats_by_operation import BillingStatsByOperation
    from ..models.billing_stats_by_tier import BillingStatsByTier
    from ..models.platform_spend import PlatformSpend
    from ..models.top_user import TopUser


T = TypeVar("T", bound="BillingStats")


@_attrs_define
class BillingStats:
    """
    Attributes:
        since (datetime.datetime): The period's start (included).
        until (datetime.datetime): The period's end (excluded).
        spent (int): Credits users spent: charges less refunds.
        by_kind (BillingStatsByKind): Every transaction kind seen in the period.
        by_operation (BillingStatsByOperation): Per priced operation (search, crawl…).
        by_tier (BillingStatsByTier): Credits spent per tier with any spend.
        top_users (list[TopUser]): The 20 users who spent most.
        platform (PlatformSpend):
        accounts_by_tier (BillingStatsAccountsByTier): User accounts per tier, every tier.
    """

    since: datetime.datetime
    until: datetime.datetime
    spent: int
    by_kind: BillingStatsByKind
    by_operation: BillingStatsByOperation
    by_tier: BillingStatsByTier
    top_users: list[TopUser]
    platform: PlatformSpend
    accounts_by_tier: BillingStatsAccountsByTier
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        since = self.since.isoformat()

        until = self.until.isoformat()

        spent = self.spent

        by_kind = self.by_kind.to_dict()

        by_operation = self.by_operation.to_dict()

        by_tier = self.by_tier.to_dict()

        top_users = []
        for top_users_item_data in self.top_users:
            top_users_item = top_users_item_data.to_dict()
            top_users.append(top_users_item)

        platform = self.platform.to_dict()

        accounts_by_tier = self.accounts_by_tier.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "since": since,
                "until": until,
                "spent": spent,
                "by_kind": by_kind,
                "by_operation": by_operation,
                "by_tier": by_tier,
                "top_users": top_users,
                "platform": platform,
                "accounts_by_tier": accounts_by_tier,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.billing_stats_accounts_by_tier import BillingStatsAccountsByTier  # noqa: PLC0415
        from ..models.billing_stats_by_kind import BillingStatsByKind  # noqa: PLC0415
        from ..models.billing_stats_by_operation import BillingStatsByOperation  # noqa: PLC0415
        from ..models.billing_stats_by_tier import BillingStatsByTier  # noqa: PLC0415
        from ..models.platform_spend import PlatformSpend  # noqa: PLC0415
        from ..models.top_user import TopUser  # noqa: PLC0415

        d = dict(src_dict)
        since = datetime.datetime.fromisoformat(d.pop("since"))

        until = datetime.datetime.fromisoformat(d.pop("until"))

        spent = d.pop("spent")

        by_kind = BillingStatsByKind.from_dict(d.pop("by_kind"))

        by_operation = BillingStatsByOperation.from_dict(d.pop("by_operation"))

        by_tier = BillingStatsByTier.from_dict(d.pop("by_tier"))

        top_users = []
        _top_users = d.pop("top_users")
        for top_users_item_data in _top_users:
            top_users_item = TopUser.from_dict(top_users_item_data)

            top_users.append(top_users_item)

        platform = PlatformSpend.from_dict(d.pop("platform"))

        accounts_by_tier = BillingStatsAccountsByTier.from_dict(
            d.pop("accounts_by_tier")
        )

        billing_stats = cls(
            since=since,
            until=until,
            spent=spent,
            by_kind=by_kind,
            by_operation=by_operation,
            by_tier=by_tier,
            top_users=top_users,
            platform=platform,
            accounts_by_tier=accounts_by_tier,
        )

        billing_stats.additional_properties = d
        return billing_stats

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
