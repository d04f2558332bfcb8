from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.token_scope_enum import TokenScopeEnum

T = TypeVar("T", bound="NewToken")


@_attrs_define
class NewToken:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            name (str): Its name, as you gave it.
            scope (TokenScopeEnum): * `write` - Read and write
                * `read` - Read only
                * `reader` - Reading apps (Google Reader, Fever)
            prefix (str): The token's visible start, to tell tokens apart (never the secret).
            created_at (datetime.datetime): When it was made (ISO 8601, UTC).
            last_used_at (datetime.datetime | None): When it was last used (ISO 8601, UTC); null if never.
            current (bool): The token this request used.
            token (str): The token itself: shown this once, store it now.
    """

    id: int
    name: str
    scope: TokenScopeEnum
    prefix: str
    created_at: datetime.datetime
    last_used_at: datetime.datetime | None
    current: bool
    token: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        scope = self.scope.value

        prefix = self.prefix

        created_at = self.created_at.isoformat()

        last_used_at: None | str
        if isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

        current = self.current

        token = self.token

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "scope": scope,
                "prefix": prefix,
                "created_at": created_at,
                "last_used_at": last_used_at,
                "current": current,
                "token": token,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        scope = TokenScopeEnum(d.pop("scope"))

        prefix = d.pop("prefix")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_last_used_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at"))

        current = d.pop("current")

        token = d.pop("token")

        new_token = cls(
            id=id,
            name=name,
            scope=scope,
            prefix=prefix,
            created_at=created_at,
            last_used_at=last_used_at,
            current=current,
            token=token,
        )

        new_token.additional_properties = d
        return new_token

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
