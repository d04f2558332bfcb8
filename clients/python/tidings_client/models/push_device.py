from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="PushDevice")


@_attrs_define
class PushDevice:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            label (str): A name for it, yours to choose.
            endpoint (str): The push service's address for this browser.
            created_at (datetime.datetime): When it was made (ISO 8601, UTC).
            last_sent_at (datetime.datetime | None): When something was last sent to it (ISO 8601, UTC); null if never.
    """

    id: int
    label: str
    endpoint: str
    created_at: datetime.datetime
    last_sent_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        label = self.label

        endpoint = self.endpoint

        created_at = self.created_at.isoformat()

        last_sent_at: None | str
        if isinstance(self.last_sent_at, datetime.datetime):
            last_sent_at = self.last_sent_at.isoformat()
        else:
            last_sent_at = self.last_sent_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "label": label,
                "endpoint": endpoint,
                "created_at": created_at,
                "last_sent_at": last_sent_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        label = d.pop("label")

        endpoint = d.pop("endpoint")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_last_sent_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_sent_at = _parse_last_sent_at(d.pop("last_sent_at"))

        push_device = cls(
            id=id,
            label=label,
            endpoint=endpoint,
            created_at=created_at,
            last_sent_at=last_sent_at,
        )

        push_device.additional_properties = d
        return push_device

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
