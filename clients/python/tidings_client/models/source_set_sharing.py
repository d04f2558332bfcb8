from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.shared_library_set import SharedLibrarySet
    from ..models.shared_subscription_set import SharedSubscriptionSet


T = TypeVar("T", bound="SourceSetSharing")


@_attrs_define
class SourceSetSharing:
    """
    Attributes:
        subscriptions (list[SharedSubscriptionSet]): The 50 most shared.
        libraries (list[SharedLibrarySet]): The 50 most shared.
        distinct_subscription_hashes (int): How many different source sets live subscriptions have.
        distinct_library_hashes (int): How many different libraries users have.
    """

    subscriptions: list[SharedSubscriptionSet]
    libraries: list[SharedLibrarySet]
    distinct_subscription_hashes: int
    distinct_library_hashes: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        subscriptions = []
        for subscriptions_item_data in self.subscriptions:
            subscriptions_item = subscriptions_item_data.to_dict()
            subscriptions.append(subscriptions_item)

        libraries = []
        for libraries_item_data in self.libraries:
            libraries_item = libraries_item_data.to_dict()
            libraries.append(libraries_item)

        distinct_subscription_hashes = self.distinct_subscription_hashes

        distinct_library_hashes = self.distinct_library_hashes

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subscriptions": subscriptions,
                "libraries": libraries,
                "distinct_subscription_hashes": distinct_subscription_hashes,
                "distinct_library_hashes": distinct_library_hashes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.shared_library_set import SharedLibrarySet  # noqa: PLC0415
        from ..models.shared_subscription_set import SharedSubscriptionSet  # noqa: PLC0415

        d = dict(src_dict)
        subscriptions = []
        _subscriptions = d.pop("subscriptions")
        for subscriptions_item_data in _subscriptions:
            subscriptions_item = SharedSubscriptionSet.from_dict(
                subscriptions_item_data
            )

            subscriptions.append(subscriptions_item)

        libraries = []
        _libraries = d.pop("libraries")
        for libraries_item_data in _libraries:
            libraries_item = SharedLibrarySet.from_dict(libraries_item_data)

            libraries.append(libraries_item)

        distinct_subscription_hashes = d.pop("distinct_subscription_hashes")

        distinct_library_hashes = d.pop("distinct_library_hashes")

        source_set_sharing = cls(
            subscriptions=subscriptions,
            libraries=libraries,
            distinct_subscription_hashes=distinct_subscription_hashes,
            distinct_library_hashes=distinct_library_hashes,
        )

        source_set_sharing.additional_properties = d
        return source_set_sharing

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
