from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.run_status_enum import RunStatusEnum
from ..models.trigger_enum import TriggerEnum

if TYPE_CHECKING:
    from ..models.delivery import Delivery
    from ..models.run_item import RunItem


T = TypeVar("T", bound="RunDetail")


@_attrs_define
class RunDetail:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            subscription_id (int): The id of the subscription it belongs to.
            status (RunStatusEnum): * `pending` - Pending
                * `running` - Running
                * `succeeded` - Succeeded
                * `failed` - Failed
            trigger (TriggerEnum): * `scheduled` - Scheduled
                * `manual` - Manual
                * `retry` - Retry
                * `imported` - Imported
            scheduled_at (datetime.datetime): When it was due (ISO 8601, UTC).
            started_at (datetime.datetime | None): When the work started (ISO 8601, UTC); null while queued.
            finished_at (datetime.datetime | None): When the work finished (ISO 8601, UTC); null until then.
            output_locale (str): The language briefs are written in when fixed (e.g. `en`); empty: follows the page
                language.
            candidates_count (int): How many items were considered.
            selected_count (int): How many were picked.
            delivered_count (int): How many were delivered.
            dedup_skipped_count (int): How many were left out as already delivered to you.
            redelivered_count (int): How many came again under the redelivery rule.
            billing_breakdown (Any): What it cost, by part (credits).
            credits_charged (int): Credits the run's one ledger charge took (0 when none).
            credits_refunded (int): Credits given back because the run delivered nothing.
            empty_reason (str): Why nothing was delivered; empty when something was.
            error (str): Why it failed; empty or null when it did not.
            error_code (str): Why a failed run failed: 'insufficient_credits' when the budget check refused it before it
                started (it cost nothing; billing_breakdown.budget has the figures).
            narrative_md (str): The brief's overview, in safe Markdown.
            narrative_generator (str): 'template' or the LLM model that wrote it.
            items (list[RunItem]): Its items, in the brief's order.
            deliveries (list[Delivery]): Its e-mail, webhook and push deliveries.
    """

    id: int
    subscription_id: int
    status: RunStatusEnum
    trigger: TriggerEnum
    scheduled_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    output_locale: str
    candidates_count: int
    selected_count: int
    delivered_count: int
    dedup_skipped_count: int
    redelivered_count: int
    billing_breakdown: Any
    credits_charged: int
    credits_refunded: int
    empty_reason: str
    error: str
    error_code: str
    narrative_md: str
    narrative_generator: str
    items: list[RunItem]
    deliveries: list[Delivery]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        subscription_id = self.subscription_id

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

        candidates_count = self.candidates_count

        selected_count = self.selected_count

        delivered_count = self.delivered_count

        dedup_skipped_count = self.dedup_skipped_count

        redelivered_count = self.redelivered_count

        billing_breakdown = self.billing_breakdown

        credits_charged = self.credits_charged

        credits_refunded = self.credits_refunded

        empty_reason = self.empty_reason

        error = self.error

        error_code = self.error_code

        narrative_md = self.narrative_md

        narrative_generator = self.narrative_generator

        items = []
        for items_item_data in self.items:
            items_item = items_item_data.to_dict()
            items.append(items_item)

        deliveries = []
        for deliveries_item_data in self.deliveries:
            deliveries_item = deliveries_item_data.to_dict()
            deliveries.append(deliveries_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "subscription_id": subscription_id,
                "status": status,
                "trigger": trigger,
                "scheduled_at": scheduled_at,
                "started_at": started_at,
                "finished_at": finished_at,
                "output_locale": output_locale,
                "candidates_count": candidates_count,
                "selected_count": selected_count,
                "delivered_count": delivered_count,
                "dedup_skipped_count": dedup_skipped_count,
                "redelivered_count": redelivered_count,
                "billing_breakdown": billing_breakdown,
                "credits_charged": credits_charged,
                "credits_refunded": credits_refunded,
                "empty_reason": empty_reason,
                "error": error,
                "error_code": error_code,
                "narrative_md": narrative_md,
                "narrative_generator": narrative_generator,
                "items": items,
                "deliveries": deliveries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.delivery import Delivery  # noqa: PLC0415
        from ..models.run_item import RunItem  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        subscription_id = d.pop("subscription_id")

        status = RunStatusEnum(d.pop("status"))

        trigger = TriggerEnum(d.pop("trigger"))

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

        candidates_count = d.pop("candidates_count")

        selected_count = d.pop("selected_count")

        delivered_count = d.pop("delivered_count")

        dedup_skipped_count = d.pop("dedup_skipped_count")

        redelivered_count = d.pop("redelivered_count")

        billing_breakdown = d.pop("billing_breakdown")

        credits_charged = d.pop("credits_charged")

        credits_refunded = d.pop("credits_refunded")

        empty_reason = d.pop("empty_reason")

        error = d.pop("error")

        error_code = d.pop("error_code")

        narrative_md = d.pop("narrative_md")

        narrative_generator = d.pop("narrative_generator")

        items = []
        _items = d.pop("items")
        for items_item_data in _items:
            items_item = RunItem.from_dict(items_item_data)

            items.append(items_item)

        deliveries = []
        _deliveries = d.pop("deliveries")
        for deliveries_item_data in _deliveries:
            deliveries_item = Delivery.from_dict(deliveries_item_data)

            deliveries.append(deliveries_item)

        run_detail = cls(
            id=id,
            subscription_id=subscription_id,
            status=status,
            trigger=trigger,
            scheduled_at=scheduled_at,
            started_at=started_at,
            finished_at=finished_at,
            output_locale=output_locale,
            candidates_count=candidates_count,
            selected_count=selected_count,
            delivered_count=delivered_count,
            dedup_skipped_count=dedup_skipped_count,
            redelivered_count=redelivered_count,
            billing_breakdown=billing_breakdown,
            credits_charged=credits_charged,
            credits_refunded=credits_refunded,
            empty_reason=empty_reason,
            error=error,
            error_code=error_code,
            narrative_md=narrative_md,
            narrative_generator=narrative_generator,
            items=items,
            deliveries=deliveries,
        )

        run_detail.additional_properties = d
        return run_detail

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
