from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AppriseTarget")


@_attrs_define
class AppriseTarget:
    """
    Attributes:
        id (int): Its id: a positive whole number, stable, unique among its kind.
        label (str): A name for it, yours to choose.
        service (str): The Apprise service, e.g. `json`, `ntfys`.
        hint (str): The service and host; never the URL's secrets.
        created_at (datetime.datetime): When it was made (ISO 8601, UTC).
    """

    id: int
    label: str
    service: str
    hint: str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        label = self.label

        service = self.service

        hint = self.hint

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "label": label,
                "service": service,
                "hint": hint,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        label = d.pop("label")

        service = d.pop("service")

        hint = d.pop("hint")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        apprise_target = cls(
            id=id,
            label=label,
            service=service,
            hint=hint,
            created_at=created_at,
        )

        apprise_target.additional_properties = d
        return apprise_target

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
