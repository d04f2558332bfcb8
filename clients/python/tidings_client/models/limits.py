from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Limits")


@_attrs_define
class Limits:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            subscriptions (int): Subscriptions.
            min_interval_seconds (int): The shortest time between scheduled runs the plan allows.
            manual_runs_per_hour (int): How many "run now" requests per hour the plan allows.
            public_topics (int | None): Null: no limit.
            public_publishes_per_day (int | None): Null: no limit.
            private_topics (bool): Whether the plan may publish private topics.
    """

    subscriptions: int
    min_interval_seconds: int
    manual_runs_per_hour: int
    public_topics: int | None
    public_publishes_per_day: int | None
    private_topics: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subscriptions = self.subscriptions

        min_interval_seconds = self.min_interval_seconds

        manual_runs_per_hour = self.manual_runs_per_hour

        public_topics: int | None
        public_topics = self.public_topics

        public_publishes_per_day: int | None
        public_publishes_per_day = self.public_publishes_per_day

        private_topics = self.private_topics

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subscriptions": subscriptions,
                "min_interval_seconds": min_interval_seconds,
                "manual_runs_per_hour": manual_runs_per_hour,
                "public_topics": public_topics,
                "public_publishes_per_day": public_publishes_per_day,
                "private_topics": private_topics,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        subscriptions = d.pop("subscriptions")

        min_interval_seconds = d.pop("min_interval_seconds")

        manual_runs_per_hour = d.pop("manual_runs_per_hour")

        def _parse_public_topics(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        public_topics = _parse_public_topics(d.pop("public_topics"))

        def _parse_public_publishes_per_day(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        public_publishes_per_day = _parse_public_publishes_per_day(
            d.pop("public_publishes_per_day")
        )

        private_topics = d.pop("private_topics")

        limits = cls(
            subscriptions=subscriptions,
            min_interval_seconds=min_interval_seconds,
            manual_runs_per_hour=manual_runs_per_hour,
            public_topics=public_topics,
            public_publishes_per_day=public_publishes_per_day,
            private_topics=private_topics,
        )

        limits.additional_properties = d
        return limits

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
