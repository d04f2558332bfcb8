from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.fetch_health import FetchHealth
    from ..models.llm_spend import LLMSpend
    from ..models.runs import Runs
    from ..models.subscription_status_counts import SubscriptionStatusCounts
    from ..models.user_counts import UserCounts


T = TypeVar("T", bound="PlatformStats")


@_attrs_define
class PlatformStats:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            generated_at (datetime.datetime): When these figures were computed (ISO 8601, UTC).
            users (UserCounts): Every field is read-only: the schema then lists each as present in the answer
                (required) and never offers it as input — except those named in `answered_sometimes`,
                which an answer may leave out (documented as optional).
            subscriptions (SubscriptionStatusCounts): Subscriptions not deleted, by status.
            runs (Runs): Every field is read-only: the schema then lists each as present in the answer
                (required) and never offers it as input — except those named in `answered_sometimes`,
                which an answer may leave out (documented as optional).
            fetch_health (FetchHealth): Every field is read-only: the schema then lists each as present in the answer
                (required) and never offers it as input — except those named in `answered_sometimes`,
                which an answer may leave out (documented as optional).
            llm (LLMSpend): Every field is read-only: the schema then lists each as present in the answer
                (required) and never offers it as input — except those named in `answered_sometimes`,
                which an answer may leave out (documented as optional).
    """

    generated_at: datetime.datetime
    users: UserCounts
    subscriptions: SubscriptionStatusCounts
    runs: Runs
    fetch_health: FetchHealth
    llm: LLMSpend
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        generated_at = self.generated_at.isoformat()

        users = self.users.to_dict()

        subscriptions = self.subscriptions.to_dict()

        runs = self.runs.to_dict()

        fetch_health = self.fetch_health.to_dict()

        llm = self.llm.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "generated_at": generated_at,
                "users": users,
                "subscriptions": subscriptions,
                "runs": runs,
                "fetch_health": fetch_health,
                "llm": llm,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.fetch_health import FetchHealth  # noqa: PLC0415
        from ..models.llm_spend import LLMSpend  # noqa: PLC0415
        from ..models.runs import Runs  # noqa: PLC0415
        from ..models.subscription_status_counts import SubscriptionStatusCounts  # noqa: PLC0415
        from ..models.user_counts import UserCounts  # noqa: PLC0415

        d = dict(src_dict)
        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))

        users = UserCounts.from_dict(d.pop("users"))

        subscriptions = SubscriptionStatusCounts.from_dict(d.pop("subscriptions"))

        runs = Runs.from_dict(d.pop("runs"))

        fetch_health = FetchHealth.from_dict(d.pop("fetch_health"))

        llm = LLMSpend.from_dict(d.pop("llm"))

        platform_stats = cls(
            generated_at=generated_at,
            users=users,
            subscriptions=subscriptions,
            runs=runs,
            fetch_health=fetch_health,
            llm=llm,
        )

        platform_stats.additional_properties = d
        return platform_stats

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
