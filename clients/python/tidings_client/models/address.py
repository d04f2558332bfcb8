from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Address")


@_attrs_define
class Address:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            address (str): The e-mail address to give the newsletter.
            source_id (int): The shared source's id in the content pool (the same for everyone).
            label (str): A name for it, yours to choose.
            active (bool): How many are active (or, for one thing, whether it is).
            split_roundups (bool): Each linked article of an issue also becomes its own item.
            allowed_senders (list[str]): Sender addresses (or @domains) whose mail becomes items; empty accepts any sender.
            created_at (datetime.datetime): When it was made (ISO 8601, UTC).
            revoked_at (datetime.datetime | None): When it was revoked (ISO 8601, UTC); null while in use.
    """

    id: int
    address: str
    source_id: int
    label: str
    active: bool
    split_roundups: bool
    allowed_senders: list[str]
    created_at: datetime.datetime
    revoked_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        address = self.address

        source_id = self.source_id

        label = self.label

        active = self.active

        split_roundups = self.split_roundups

        allowed_senders = self.allowed_senders

        created_at = self.created_at.isoformat()

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "address": address,
                "source_id": source_id,
                "label": label,
                "active": active,
                "split_roundups": split_roundups,
                "allowed_senders": allowed_senders,
                "created_at": created_at,
                "revoked_at": revoked_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        address = d.pop("address")

        source_id = d.pop("source_id")

        label = d.pop("label")

        active = d.pop("active")

        split_roundups = d.pop("split_roundups")

        allowed_senders = cast(list[str], d.pop("allowed_senders"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))

        address = cls(
            id=id,
            address=address,
            source_id=source_id,
            label=label,
            active=active,
            split_roundups=split_roundups,
            allowed_senders=allowed_senders,
            created_at=created_at,
            revoked_at=revoked_at,
        )

        address.additional_properties = d
        return address

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
