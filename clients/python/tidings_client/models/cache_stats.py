from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.cache_stats_by_kind import CacheStatsByKind


T = TypeVar("T", bound="CacheStats")


@_attrs_define
class CacheStats:
    """
    Attributes:
        hits (int): Answers taken from the cache.
        misses (int): Answers the model had to write.
        requests (int): hits + misses.
        hit_rate (float | None): hits / requests, 0-1; null before any request.
        tokens_saved (int): Model tokens the hits did not spend.
        unique_keys (int): Entries, whatever their state.
        ready (int): Entries ready and not expired.
        expired (int): Entries ready but past their expiry.
        pending (int): Entries being written.
        failed (int): How many failed.
        by_kind (CacheStatsByKind): The same figures per kind (interests, narrative, relevance, summary).
    """

    hits: int
    misses: int
    requests: int
    hit_rate: float | None
    tokens_saved: int
    unique_keys: int
    ready: int
    expired: int
    pending: int
    failed: int
    by_kind: CacheStatsByKind
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        hits = self.hits

        misses = self.misses

        requests = self.requests

        hit_rate: float | None
        hit_rate = self.hit_rate

        tokens_saved = self.tokens_saved

        unique_keys = self.unique_keys

        ready = self.ready

        expired = self.expired

        pending = self.pending

        failed = self.failed

        by_kind = self.by_kind.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "hits": hits,
                "misses": misses,
                "requests": requests,
                "hit_rate": hit_rate,
                "tokens_saved": tokens_saved,
                "unique_keys": unique_keys,
                "ready": ready,
                "expired": expired,
                "pending": pending,
                "failed": failed,
                "by_kind": by_kind,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.cache_stats_by_kind import CacheStatsByKind  # noqa: PLC0415

        d = dict(src_dict)
        hits = d.pop("hits")

        misses = d.pop("misses")

        requests = d.pop("requests")

        def _parse_hit_rate(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        hit_rate = _parse_hit_rate(d.pop("hit_rate"))

        tokens_saved = d.pop("tokens_saved")

        unique_keys = d.pop("unique_keys")

        ready = d.pop("ready")

        expired = d.pop("expired")

        pending = d.pop("pending")

        failed = d.pop("failed")

        by_kind = CacheStatsByKind.from_dict(d.pop("by_kind"))

        cache_stats = cls(
            hits=hits,
            misses=misses,
            requests=requests,
            hit_rate=hit_rate,
            tokens_saved=tokens_saved,
            unique_keys=unique_keys,
            ready=ready,
            expired=expired,
            pending=pending,
            failed=failed,
            by_kind=by_kind,
        )

        cache_stats.additional_properties = d
        return cache_stats

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
