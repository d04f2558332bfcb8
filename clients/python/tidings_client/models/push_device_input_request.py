from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.push_keys_request import PushKeysRequest


T = TypeVar("T", bound="PushDeviceInputRequest")


@_attrs_define
class PushDeviceInputRequest:
    """A browser's `PushSubscription.toJSON()`, with an optional label.

    Attributes:
        endpoint (str): The push service's https URL.
        keys (PushKeysRequest):
        expiration_time (int | None | Unset): Sent by browsers; ignored.
        label (str | Unset): Your name for it.
    """

    endpoint: str
    keys: PushKeysRequest
    expiration_time: int | None | Unset = UNSET
    label: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        endpoint = self.endpoint

        keys = self.keys.to_dict()

        expiration_time: int | None | Unset
        if isinstance(self.expiration_time, Unset):
            expiration_time = UNSET
        else:
            expiration_time = self.expiration_time

        label: str | Unset
        if isinstance(self.label, Unset):
            label = UNSET
        else:
            label = self.label

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "endpoint": endpoint,
                "keys": keys,
            }
        )
        if expiration_time is not UNSET:
            field_dict["expirationTime"] = expiration_time
        if label is not UNSET:
            field_dict["label"] = label

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.push_keys_request import PushKeysRequest  # noqa: PLC0415

        d = dict(src_dict)
        endpoint = d.pop("endpoint")

        keys = PushKeysRequest.from_dict(d.pop("keys"))

        def _parse_expiration_time(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        expiration_time = _parse_expiration_time(d.pop("expirationTime", UNSET))

        def _parse_label(data: object) -> str | Unset:
            if isinstance(data, Unset):
                return data
            return cast(str | Unset, data)

        label = _parse_label(d.pop("label", UNSET))

        push_device_input_request = cls(
            endpoint=endpoint,
            keys=keys,
            expiration_time=expiration_time,
            label=label,
        )

        return push_device_input_request
