from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateAddressRequest")


@_attrs_define
class CreateAddressRequest:
    """
    Attributes:
        label (str | Unset): A name for it, yours to choose.
        split_roundups (bool | Unset): Each linked article of an issue also becomes its own item. Default: False.
        subscription_id (int | None | Unset): One of your subscriptions: it uses the new address's source at once.
    """

    label: str | Unset = UNSET
    split_roundups: bool | Unset = False
    subscription_id: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        label: str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        split_roundups = self.split_roundups

        subscription_id: int | None | Unset
        if isinstance(self.subscription_id, Unset):
            subscription_id = UNSET
        else:
            subscription_id = self.subscription_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if label is not UNSET:
            field_dict["label"] = label
        if split_roundups is not UNSET:
            field_dict["split_roundups"] = split_roundups
        if subscription_id is not UNSET:
            field_dict["subscription_id"] = subscription_id

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_label(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        split_roundups = d.pop("split_roundups", UNSET)

        def _parse_subscription_id(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        subscription_id = _parse_subscription_id(d.pop("subscription_id", UNSET))

        create_address_request = cls(
            label=label,
            split_roundups=split_roundups,
            subscription_id=subscription_id,
        )

        return create_address_request
