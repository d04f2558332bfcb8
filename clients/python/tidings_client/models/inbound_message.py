from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.inbound_message_status_enum import InboundMessageStatusEnum

T = TypeVar("T", bound="InboundMessage")


@_attrs_define
class InboundMessage:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            status (InboundMessageStatusEnum): * `pending` - Received, not yet read
                * `accepted` - Added to the pool
                * `held` - Held: sender not allowed
                * `confirmation` - Subscription confirmation
                * `refused` - Refused
            sender_email (str): Who sent it.
            sender_name (str): The sender's display name.
            subject (str): The message's subject.
            received_at (datetime.datetime): When it arrived (ISO 8601, UTC).
            confirm_url (str): For a confirmation mail: the link to open yourself to confirm.
            dkim (str): The DKIM check, e.g. `DKIM: pass (example.com)`; empty without a signature.
            item_id (int | None): The id of the item in the shared content pool.
    """

    id: int
    status: InboundMessageStatusEnum
    sender_email: str
    sender_name: str
    subject: str
    received_at: datetime.datetime
    confirm_url: str
    dkim: str
    item_id: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status.value

        sender_email = self.sender_email

        sender_name = self.sender_name

        subject = self.subject

        received_at = self.received_at.isoformat()

        confirm_url: str
        confirm_url = self.confirm_url

        dkim = self.dkim

        item_id: int | None
        item_id = self.item_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "sender_email": sender_email,
                "sender_name": sender_name,
                "subject": subject,
                "received_at": received_at,
                "confirm_url": confirm_url,
                "dkim": dkim,
                "item_id": item_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        status = InboundMessageStatusEnum(d.pop("status"))

        sender_email = d.pop("sender_email")

        sender_name = d.pop("sender_name")

        subject = d.pop("subject")

        received_at = datetime.datetime.fromisoformat(d.pop("received_at"))

        def _parse_confirm_url(data: object) -> str:
            return cast(str, data)

        confirm_url = _parse_confirm_url(d.pop("confirm_url"))

        dkim = d.pop("dkim")

        def _parse_item_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        item_id = _parse_item_id(d.pop("item_id"))

        inbound_message = cls(
            id=id,
            status=status,
            sender_email=sender_email,
            sender_name=sender_name,
            subject=subject,
            received_at=received_at,
            confirm_url=confirm_url,
            dkim=dkim,
            item_id=item_id,
        )

        inbound_message.additional_properties = d
        return inbound_message

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
