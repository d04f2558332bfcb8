from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.saved_page_item import SavedPageItem
    from ..models.subscription import Subscription


T = TypeVar("T", bound="SavedPage")


@_attrs_define
class SavedPage:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            subscription (Subscription): Every field is read-only: the schema then lists each as present in the answer
                (required) and never offers it as input — except those named in `answered_sometimes`,
                which an answer may leave out (documented as optional).
            next_run_at (datetime.datetime | None): When it runs next (ISO 8601, UTC); null when it will not run again.
            source_id (int): The shared source's id in the content pool (the same for everyone).
            user_source_id (int): The id of the source in your library (`/api/v1/sources/{id}`).
            item (None | SavedPageItem): The page, as an item of the content pool.
    """

    subscription: Subscription
    next_run_at: datetime.datetime | None
    source_id: int
    user_source_id: int
    item: None | SavedPageItem
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.saved_page_item import SavedPageItem  # noqa: PLC0415

        subscription = self.subscription.to_dict()

        next_run_at: None | str
        if isinstance(self.next_run_at, datetime.datetime):
            next_run_at = self.next_run_at.isoformat()
        else:
            next_run_at = self.next_run_at

        source_id = self.source_id

        user_source_id = self.user_source_id

        item: dict[str, Any] | None
        if isinstance(self.item, SavedPageItem):
            item = self.item.to_dict()
        else:
            item = self.item

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "subscription": subscription,
                "next_run_at": next_run_at,
                "source_id": source_id,
                "user_source_id": user_source_id,
                "item": item,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.saved_page_item import SavedPageItem  # noqa: PLC0415
        from ..models.subscription import Subscription  # noqa: PLC0415

        d = dict(src_dict)
        subscription = Subscription.from_dict(d.pop("subscription"))

        def _parse_next_run_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_run_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_run_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_run_at = _parse_next_run_at(d.pop("next_run_at"))

        source_id = d.pop("source_id")

        user_source_id = d.pop("user_source_id")

        def _parse_item(data: object) -> None | SavedPageItem:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                item_type_0 = SavedPageItem.from_dict(data)

                return item_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SavedPageItem, data)

        item = _parse_item(d.pop("item"))

        saved_page = cls(
            subscription=subscription,
            next_run_at=next_run_at,
            source_id=source_id,
            user_source_id=user_source_id,
            item=item,
        )

        saved_page.additional_properties = d
        return saved_page

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
