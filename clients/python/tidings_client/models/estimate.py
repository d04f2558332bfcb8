from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.tier_enum import TierEnum

T = TypeVar("T", bound="Estimate")


@_attrs_define
class Estimate:
    """
    Attributes:
        per_run_max (int): The most one run can cost, in credits.
        runs_per_month (int): About how many runs in the next 30 days.
        per_month_max (int): The most those runs can cost, in credits.
        monthly_credits (int): Credits granted each period by the plan.
        balance (int): Your credits now.
        tier (TierEnum): * `free` - Free
            * `basic` - Basic
            * `pro` - Pro
            * `team` - Team
        tier_label (str): The plan's name, in your language.
        fits_plan (bool): Whether the schedule and sources fit your plan.
        plan_refusal (str): Why they do not fit your plan; empty when they do.
    """

    per_run_max: int
    runs_per_month: int
    per_month_max: int
    monthly_credits: int
    balance: int
    tier: TierEnum
    tier_label: str
    fits_plan: bool
    plan_refusal: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        per_run_max = self.per_run_max

        runs_per_month = self.runs_per_month

        per_month_max = self.per_month_max

        monthly_credits = self.monthly_credits

        balance = self.balance

        tier = self.tier.value

        tier_label = self.tier_label

        fits_plan = self.fits_plan

        plan_refusal = self.plan_refusal

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "per_run_max": per_run_max,
                "runs_per_month": runs_per_month,
                "per_month_max": per_month_max,
                "monthly_credits": monthly_credits,
                "balance": balance,
                "tier": tier,
                "tier_label": tier_label,
                "fits_plan": fits_plan,
                "plan_refusal": plan_refusal,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        per_run_max = d.pop("per_run_max")

        runs_per_month = d.pop("runs_per_month")

        per_month_max = d.pop("per_month_max")

        monthly_credits = d.pop("monthly_credits")

        balance = d.pop("balance")

        tier = TierEnum(d.pop("tier"))

        tier_label = d.pop("tier_label")

        fits_plan = d.pop("fits_plan")

        plan_refusal = d.pop("plan_refusal")

        estimate = cls(
            per_run_max=per_run_max,
            runs_per_month=runs_per_month,
            per_month_max=per_month_max,
            monthly_credits=monthly_credits,
            balance=balance,
            tier=tier,
            tier_label=tier_label,
            fits_plan=fits_plan,
            plan_refusal=plan_refusal,
        )

        estimate.additional_properties = d
        return estimate

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
