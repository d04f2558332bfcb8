from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kind_enum import KindEnum

T = TypeVar("T", bound="Transaction")


@_attrs_define
class Transaction:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            kind (KindEnum): * `charge` - Charge
                * `refund` - Refund
                * `grant` - Grant
                * `monthly_reset` - Monthly reset
                * `adjustment` - Adjustment
            amount (int): How many credits the entry moves (its `kind` says which way).
            run_id (int | None): The id of the run it belongs to.
            created_at (datetime.datetime): When it was made (ISO 8601, UTC).
            breakdown (Any): What the amount is made of, by part.
            balance_after (int | None): The balance after this entry.
            period_start (datetime.date | None): The account period this row counts in.
            reason (str): Why, in plain words.
    """

    id: int
    kind: KindEnum
    amount: int
    run_id: int | None
    created_at: datetime.datetime
    breakdown: Any
    balance_after: int | None
    period_start: datetime.date | None
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        kind = self.kind.value

        amount = self.amount

        run_id: int | None
        run_id = self.run_id

        created_at = self.created_at.isoformat()

        breakdown = self.breakdown

        balance_after: int | None
        balance_after = self.balance_after

        period_start: None | str
        if isinstance(self.period_start, datetime.date):
            period_start = self.period_start.isoformat()
        else:
            period_start = self.period_start

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "kind": kind,
                "amount": amount,
                "run_id": run_id,
                "created_at": created_at,
                "breakdown": breakdown,
                "balance_after": balance_after,
                "period_start": period_start,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        kind = KindEnum(d.pop("kind"))

        amount = d.pop("amount")

        def _parse_run_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        run_id = _parse_run_id(d.pop("run_id"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        breakdown = d.pop("breakdown")

        def _parse_balance_after(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        balance_after = _parse_balance_after(d.pop("balance_after"))

        def _parse_period_start(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                period_start_type_0 = datetime.date.fromisoformat(data)

                return period_start_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        period_start = _parse_period_start(d.pop("period_start"))

        reason = d.pop("reason")

        transaction = cls(
            id=id,
            kind=kind,
            amount=amount,
            run_id=run_id,
            created_at=created_at,
            breakdown=breakdown,
            balance_after=balance_after,
            period_start=period_start,
            reason=reason,
        )

        transaction.additional_properties = d
        return transaction

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
