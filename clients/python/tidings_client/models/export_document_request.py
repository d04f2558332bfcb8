from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.format_enum import FormatEnum
from ..models.transfer_scope_enum import TransferScopeEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ExportDocumentRequest")


@_attrs_define
class ExportDocumentRequest:
    """The document's top level, for the schema, and checked at once by `POST /import` (a 400
    naming the member: an unknown one, a missing one, a list that is not a list); every part is
    described field by field in inbox/portability/export.schema.json, which the import job
    checks it against.

        Attributes:
            format_ (FormatEnum): * `tidings-export@1` - tidings-export@1
            exported_at (str): ISO 8601 date and time with a UTC offset.
            instance (Any): Any JSON value with no NUL character in its strings or its keys, at most 20 levels deep (the
                import job checks what each member must be).
            scope (TransferScopeEnum): * `saved` - Saved items only
                * `saved_recent` - Saved items and recent briefs
                * `everything` - Everything
            account (Any): Any JSON value with no NUL character in its strings or its keys, at most 20 levels deep (the
                import job checks what each member must be).
            preferences (Any): Any JSON value with no NUL character in its strings or its keys, at most 20 levels deep (the
                import job checks what each member must be).
            sources (list[Any]): Sources.
            subscriptions (list[Any]): Subscriptions.
            runs (list[Any]): With their items.
            content_states (list[Any]): Your marks on items (read, saved, not interested).
            folders (list[Any] | Unset): The library's folders (older documents have none).
    """

    format_: FormatEnum
    exported_at: str
    instance: Any
    scope: TransferScopeEnum
    account: Any
    preferences: Any
    sources: list[Any]
    subscriptions: list[Any]
    runs: list[Any]
    content_states: list[Any]
    folders: list[Any] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_.value

        exported_at = self.exported_at

        instance = self.instance

        scope = self.scope.value

        account = self.account

        preferences = self.preferences

        sources = self.sources

        subscriptions = self.subscriptions

        runs = self.runs

        content_states = self.content_states

        folders: list[Any] | Unset = UNSET
        if not isinstance(self.folders, Unset):
            folders = self.folders

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "format": format_,
                "exported_at": exported_at,
                "instance": instance,
                "scope": scope,
                "account": account,
                "preferences": preferences,
                "sources": sources,
                "subscriptions": subscriptions,
                "runs": runs,
                "content_states": content_states,
            }
        )
        if folders is not UNSET:
            field_dict["folders"] = folders

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        format_ = FormatEnum(d.pop("format"))

        exported_at = d.pop("exported_at")

        instance = d.pop("instance")

        scope = TransferScopeEnum(d.pop("scope"))

        account = d.pop("account")

        preferences = d.pop("preferences")

        sources = cast(list[Any], d.pop("sources"))

        subscriptions = cast(list[Any], d.pop("subscriptions"))

        runs = cast(list[Any], d.pop("runs"))

        content_states = cast(list[Any], d.pop("content_states"))

        folders = cast(list[Any], d.pop("folders", UNSET))

        export_document_request = cls(
            format_=format_,
            exported_at=exported_at,
            instance=instance,
            scope=scope,
            account=account,
            preferences=preferences,
            sources=sources,
            subscriptions=subscriptions,
            runs=runs,
            content_states=content_states,
            folders=folders,
        )

        return export_document_request
