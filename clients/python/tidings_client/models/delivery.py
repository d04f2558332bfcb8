from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.channel_enum import ChannelEnum
from ..models.delivery_status_enum import DeliveryStatusEnum
from ..models.event_enum import EventEnum

T = TypeVar("T", bound="Delivery")


@_attrs_define
class Delivery:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            run_id (int | None): Null for test events.
            channel (ChannelEnum): * `email` - Email
                * `webhook` - Webhook
                * `push` - Web Push
            event (EventEnum): * `brief` - Brief
                * `test` - Test event
            recipient (str): The address or URL it was sent to.
            status (DeliveryStatusEnum): * `pending` - Pending
                * `sending` - Sending
                * `sent` - Sent
                * `failed` - Failed
            gave_up (bool): Failed and not retried any more (permanent, or out of tries).
            attempts (int): How many times a worker has claimed this work.
            next_attempt_at (datetime.datetime | None): When the next attempt is due (ISO 8601, UTC); null if none.
            last_attempt_at (datetime.datetime | None): When it was last attempted (ISO 8601, UTC); null if never.
            sent_at (datetime.datetime | None): When it was sent (ISO 8601, UTC); null until then.
            response_code (int | None): The SMTP reply code or HTTP status of the last try.
            last_error (str): Why the last attempt failed; empty when it did not.
            created_at (datetime.datetime): When it was made (ISO 8601, UTC).
    """

    id: int
    run_id: int | None
    channel: ChannelEnum
    event: EventEnum
    recipient: str
    status: DeliveryStatusEnum
    gave_up: bool
    attempts: int
    next_attempt_at: datetime.datetime | None
    last_attempt_at: datetime.datetime | None
    sent_at: datetime.datetime | None
    response_code: int | None
    last_error: str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        run_id: int | None
        run_id = self.run_id

        channel = self.channel.value

        event = self.event.value

        recipient = self.recipient

        status = self.status.value

        gave_up = self.gave_up

        attempts = self.attempts

        next_attempt_at: None | str
        if isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        last_attempt_at: None | str
        if isinstance(self.last_attempt_at, datetime.datetime):
            last_attempt_at = self.last_attempt_at.isoformat()
        else:
            last_attempt_at = self.last_attempt_at

        sent_at: None | str
        if isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        response_code: int | None
        response_code = self.response_code

        last_error = self.last_error

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "run_id": run_id,
                "channel": channel,
                "event": event,
                "recipient": recipient,
                "status": status,
                "gave_up": gave_up,
                "attempts": attempts,
                "next_attempt_at": next_attempt_at,
                "last_attempt_at": last_attempt_at,
                "sent_at": sent_at,
                "response_code": response_code,
                "last_error": last_error,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_run_id(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        run_id = _parse_run_id(d.pop("run_id"))

        channel = ChannelEnum(d.pop("channel"))

        event = EventEnum(d.pop("event"))

        recipient = d.pop("recipient")

        status = DeliveryStatusEnum(d.pop("status"))

        gave_up = d.pop("gave_up")

        attempts = d.pop("attempts")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at"))

        def _parse_last_attempt_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_attempt_at = _parse_last_attempt_at(d.pop("last_attempt_at"))

        def _parse_sent_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        sent_at = _parse_sent_at(d.pop("sent_at"))

        def _parse_response_code(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        response_code = _parse_response_code(d.pop("response_code"))

        last_error = d.pop("last_error")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        delivery = cls(
            id=id,
            run_id=run_id,
            channel=channel,
            event=event,
            recipient=recipient,
            status=status,
            gave_up=gave_up,
            attempts=attempts,
            next_attempt_at=next_attempt_at,
            last_attempt_at=last_attempt_at,
            sent_at=sent_at,
            response_code=response_code,
            last_error=last_error,
            created_at=created_at,
        )

        delivery.additional_properties = d
        return delivery

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
