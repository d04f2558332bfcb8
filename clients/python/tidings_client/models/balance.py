from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tier_enum import TierEnum

if TYPE_CHECKING:
    from ..models.limits import Limits


T = TypeVar("T", bound="Balance")


@_attrs_define
class Balance:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            tier (TierEnum): * `free` - Free
                * `basic` - Basic
                * `pro` - Pro
                * `team` - Team
            balance (int): The sum of this period's ledger rows.
            monthly_credits (int): Credits granted each period by the plan.
            period_start (datetime.date): First day of the period (UTC).
            period_end (datetime.date): First day of the next period (UTC): the balance resets then.
            limits (Limits): Every field is read-only: the schema then lists each as present in the answer
                (required) and never offers it as input — except those named in `answered_sometimes`,
                which an answer may leave out (documented as optional).
    """

    tier: TierEnum
    balance: int
    monthly_credits: int
    period_start: datetime.date
    period_end: datetime.date
    limits: Limits
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tier = self.tier.value

        balance = self.balance

        monthly_credits = self.monthly_credits

        period_start = self.period_start.isoformat()

        period_end = self.period_end.isoformat()

        limits = self.limits.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tier": tier,
                "balance": balance,
                "monthly_credits": monthly_credits,
                "period_start": period_start,
                "period_end": period_end,
                "limits": limits,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.limits import Limits  # noqa: PLC0415

        d = dict(src_dict)
        tier = TierEnum(d.pop("tier"))

        balance = d.pop("balance")

        monthly_credits = d.pop("monthly_credits")

        period_start = datetime.date.fromisoformat(d.pop("period_start"))

        period_end = datetime.date.fromisoformat(d.pop("period_end"))

        limits = Limits.from_dict(d.pop("limits"))

        balance = cls(
            tier=tier,
            balance=balance,
            monthly_credits=monthly_credits,
            period_start=period_start,
            period_end=period_end,
            limits=limits,
        )

        balance.additional_properties = d
        return balance

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
