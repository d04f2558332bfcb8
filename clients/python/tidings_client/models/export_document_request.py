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
            instance (Any | None): {url, software}
            scope (TransferScopeEnum): * `saved` - Saved items only
                * `saved_recent` - Saved items and recent briefs
                * `everything` - Everything
            account (Any | None): {id, email} on the exporting instance
            preferences (Any | None): {ui_locale, timezone, locale_mode}
            sources (list[Any | None]): Sources.
            subscriptions (list[Any | None]): Subscriptions.
            runs (list[Any | None]): With their items.
            content_states (list[Any | None]): Your marks on items (read, saved, not interested).
            folders (list[Any | None] | Unset): The library's folders (older documents have none).
    """

    format_: FormatEnum
    exported_at: str
    instance: Any | None
    scope: TransferScopeEnum
    account: Any | None
    preferences: Any | None
    sources: list[Any | None]
    subscriptions: list[Any | None]
    runs: list[Any | None]
    content_states: list[Any | None]
    folders: list[Any | None] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_.value

        exported_at = self.exported_at

        instance: Any | None
        instance = self.instance

        scope = self.scope.value

        account: Any | None
        account = self.account

        preferences: Any | None
        preferences = self.preferences

        sources = []
        for sources_item_data in self.sources:
            sources_item: Any | None
            sources_item = sources_item_data
            sources.append(sources_item)

        subscriptions = []
        for subscriptions_item_data in self.subscriptions:
            subscriptions_item: Any | None
            subscriptions_item = subscriptions_item_data
            subscriptions.append(subscriptions_item)

        runs = []
        for runs_item_data in self.runs:
            runs_item: Any | None
            runs_item = runs_item_data
            runs.append(runs_item)

        content_states = []
        for content_states_item_data in self.content_states:
            content_states_item: Any | None
            content_states_item = content_states_item_data
            content_states.append(content_states_item)

        folders: list[Any | None] | Unset = UNSET
        if not isinstance(self.folders, Unset):
            folders = []
            for folders_item_data in self.folders:
                folders_item: Any | None
                folders_item = folders_item_data
                folders.append(folders_item)

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

        def _parse_instance(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        instance = _parse_instance(d.pop("instance"))

        scope = TransferScopeEnum(d.pop("scope"))

        def _parse_account(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        account = _parse_account(d.pop("account"))

        def _parse_preferences(data: object) -> Any | None:
            if data is None:
                return data
            return cast(Any | None, data)

        preferences = _parse_preferences(d.pop("preferences"))

        sources = []
        _sources = d.pop("sources")
        for sources_item_data in _sources:

            def _parse_sources_item(data: object) -> Any | None:
                if data is None:
                    return data
                return cast(Any | None, data)

            sources_item = _parse_sources_item(sources_item_data)

            sources.append(sources_item)

        subscriptions = []
        _subscriptions = d.pop("subscriptions")
        for subscriptions_item_data in _subscriptions:

            def _parse_subscriptions_item(data: object) -> Any | None:
                if data is None:
                    return data
                return cast(Any | None, data)

            subscriptions_item = _parse_subscriptions_item(subscriptions_item_data)

            subscriptions.append(subscriptions_item)

        runs = []
        _runs = d.pop("runs")
        for runs_item_data in _runs:

            def _parse_runs_item(data: object) -> Any | None:
                if data is None:
                    return data
                return cast(Any | None, data)

            runs_item = _parse_runs_item(runs_item_data)

            runs.append(runs_item)

        content_states = []
        _content_states = d.pop("content_states")
        for content_states_item_data in _content_states:

            def _parse_content_states_item(data: object) -> Any | None:
                if data is None:
                    return data
                return cast(Any | None, data)

            content_states_item = _parse_content_states_item(content_states_item_data)

            content_states.append(content_states_item)

        _folders = d.pop("folders", UNSET)
        folders: list[Any | None] | Unset = UNSET
        if _folders is not UNSET:
            folders = []
            for folders_item_data in _folders:

                def _parse_folders_item(data: object) -> Any | None:
                    if data is None:
                        return data
                    return cast(Any | None, data)

                folders_item = _parse_folders_item(folders_item_data)

                folders.append(folders_item)

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
