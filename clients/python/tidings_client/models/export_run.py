from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.export_run_status import ExportRunStatus
from ..models.export_run_trigger import ExportRunTrigger

if TYPE_CHECKING:
    from ..models.export_run_item import ExportRunItem


T = TypeVar("T", bound="ExportRun")


@_attrs_define
class ExportRun:
    """
    Attributes:
        id (int): Its id: a positive whole number, stable, unique among its kind.
        subscription (int): A subscription id of this document.
        status (ExportRunStatus): Its state now (one of the values listed).
        trigger (ExportRunTrigger): What started it: `scheduled`, `manual`, `retry` or `imported`.
        scheduled_at (datetime.datetime): When it was due (ISO 8601, UTC).
        started_at (datetime.datetime | None): When the work started (ISO 8601, UTC); null while queued.
        finished_at (datetime.datetime | None): When the work finished (ISO 8601, UTC); null until then.
        output_locale (str): The language briefs are written in when fixed (e.g. `en`); empty: follows the page
            language.
        narrative_md (str): The brief's overview, in safe Markdown.
        narrative_generator (str): Who wrote the overview: `template`, or the model's name.
        candidates_count (int): How many items were considered.
        selected_count (int): How many were picked.
        delivered_count (int): How many were delivered.
        dedup_skipped_count (int): How many were left out as already delivered to you.
        redelivered_count (int): How many came again under the redelivery rule.
        empty_reason (str): Why nothing was delivered; empty when something was.
        error (str): Why it failed; empty or null when it did not.
        error_code (str): A failed run's error code; else empty.
        items (list[ExportRunItem]): Its items, in the brief's order.
    """

    id: int
    subscription: int
    status: ExportRunStatus
    trigger: ExportRunTrigger
    scheduled_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    output_locale: str
    narrative_md: str
    narrative_generator: str
    candidates_count: int
    selected_count: int
    delivered_count: int
    dedup_skipped_count: int
    redelivered_count: int
    empty_reason: str
    error: str
    error_code: str
    items: list[ExportRunItem]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        subscription = self.subscription

        status = self.status.value

        trigger = self.trigger.value

        scheduled_at = self.scheduled_at.isoformat()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        output_locale = self.output_locale

        narrative_md = self.narrative_md

        narrative_generator = self.narrative_generator

        candidates_count = self.candidates_count

        selected_count = self.selected_count

        delivered_count = self.delivered_count

        dedup_skipped_count = self.dedup_skipped_count

        redelivered_count = self.redelivered_count

        empty_reason = self.empty_reason

        error = self.error

        error_code = self.error_code

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "subscription": subscription,
                "status": status,
                "trigger": trigger,
                "scheduled_at": scheduled_at,
                "started_at": started_at,
                "finished_at": finished_at,
                "output_locale": output_locale,
                "narrative_md": narrative_md,
                "narrative_generator": narrative_generator,
                "candidates_count": candidates_count,
                "selected_count": selected_count,
                "delivered_count": delivered_count,
                "dedup_skipped_count": dedup_skipped_count,
                "redelivered_count": redelivered_count,
                "empty_reason": empty_reason,
                "error": error,
                "error_code": error_code,
                "items": items,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.export_run_item import ExportRunItem  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        subscription = d.pop("subscription")

        status = ExportRunStatus(d.pop("status"))

        trigger = ExportRunTrigger(d.pop("trigger"))

        scheduled_at = datetime.datetime.fromisoformat(d.pop("scheduled_at"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        output_locale = d.pop("output_locale")

        narrative_md = d.pop("narrative_md")

        narrative_generator = d.pop("narrative_generator")

        candidates_count = d.pop("candidates_count")

        selected_count = d.pop("selected_count")

        delivered_count = d.pop("delivered_count")

        dedup_skipped_count = d.pop("dedup_skipped_count")

        redelivered_count = d.pop("redelivered_count")

        empty_reason = d.pop("empty_reason")

        error = d.pop("error")

        error_code = d.pop("error_code")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = ExportRunItem.from_dict(items_item_data)

            items.append(items_item)

        export_run = cls(
            id=id,
            subscription=subscription,
            status=status,
            trigger=trigger,
            scheduled_at=scheduled_at,
            started_at=started_at,
            finished_at=finished_at,
            output_locale=output_locale,
            narrative_md=narrative_md,
            narrative_generator=narrative_generator,
            candidates_count=candidates_count,
            selected_count=selected_count,
            delivered_count=delivered_count,
            dedup_skipped_count=dedup_skipped_count,
            redelivered_count=redelivered_count,
            empty_reason=empty_reason,
            error=error,
            error_code=error_code,
            items=items,
        )

        return export_run
