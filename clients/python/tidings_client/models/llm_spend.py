from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="LLMSpend")


@_attrs_define
class LLMSpend:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            tokens_today (int): Platform tokens this UTC day.
            daily_token_budget (int): The model tokens allowed per day.
            calls_24h (int): Model calls in the last 24 hours.
            calls_30d (int): Model calls in the last 30 days.
            failed_30d (int): Model calls that failed in the last 30 days.
            input_tokens_30d (int): Model input tokens in the last 30 days.
            output_tokens_30d (int): Model output tokens in the last 30 days.
    """

    tokens_today: int
    daily_token_budget: int
    calls_24h: int
    calls_30d: int
    failed_30d: int
    input_tokens_30d: int
    output_tokens_30d: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        tokens_today = self.tokens_today

        daily_token_budget = self.daily_token_budget

        calls_24h = self.calls_24h

        calls_30d = self.calls_30d

        failed_30d = self.failed_30d

        input_tokens_30d = self.input_tokens_30d

        output_tokens_30d = self.output_tokens_30d

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "tokens_today": tokens_today,
                "daily_token_budget": daily_token_budget,
                "calls_24h": calls_24h,
                "calls_30d": calls_30d,
                "failed_30d": failed_30d,
                "input_tokens_30d": input_tokens_30d,
                "output_tokens_30d": output_tokens_30d,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        tokens_today = d.pop("tokens_today")

        daily_token_budget = d.pop("daily_token_budget")

        calls_24h = d.pop("calls_24h")

        calls_30d = d.pop("calls_30d")

        failed_30d = d.pop("failed_30d")

        input_tokens_30d = d.pop("input_tokens_30d")

        output_tokens_30d = d.pop("output_tokens_30d")

        llm_spend = cls(
            tokens_today=tokens_today,
            daily_token_budget=daily_token_budget,
            calls_24h=calls_24h,
            calls_30d=calls_30d,
            failed_30d=failed_30d,
            input_tokens_30d=input_tokens_30d,
            output_tokens_30d=output_tokens_30d,
        )

        llm_spend.additional_properties = d
        return llm_spend

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
