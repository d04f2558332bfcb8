from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

from ..models.tidings_export_version_1_scope import TidingsExportVersion1Scope
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.export_content_state import ExportContentState
    from ..models.export_folder import ExportFolder
    from ..models.export_run import ExportRun
    from ..models.export_source import ExportSource
    from ..models.export_subscription import ExportSubscription
    from ..models.tidings_export_version_1_account import TidingsExportVersion1Account
    from ..models.tidings_export_version_1_instance import TidingsExportVersion1Instance
    from ..models.tidings_export_version_1_preferences import (
        TidingsExportVersion1Preferences,
    )


T = TypeVar("T", bound="TidingsExportVersion1")


@_attrs_define
class TidingsExportVersion1:
    """One account's data as exported by GET /api/v1/export (inbox/portability/export.py). Ids are the exporting
    instance's; they only link rows inside the document.

        Attributes:
            format_ (Literal['tidings-export@1']): The export format; `tidings-export@1`.
            exported_at (datetime.datetime): When the export was made (ISO 8601 with an offset).
            instance (TidingsExportVersion1Instance): The instance that exported it: its address and software.
            scope (TidingsExportVersion1Scope): What it covers or allows (one of the values listed).
            account (TidingsExportVersion1Account): The account exported, on the exporting instance.
            preferences (TidingsExportVersion1Preferences): The account's language, time zone and how the language is
                chosen.
            sources (list[ExportSource]): Sources.
            subscriptions (list[ExportSubscription]): Subscriptions.
            runs (list[ExportRun]): Runs.
            content_states (list[ExportContentState]): Your marks on items (read, saved, not interested).
            folders (list[ExportFolder] | Unset): The folders of the library (optional: older documents have none).
    """

    format_: Literal["tidings-export@1"]
    exported_at: datetime.datetime
    instance: TidingsExportVersion1Instance
    scope: TidingsExportVersion1Scope
    account: TidingsExportVersion1Account
    preferences: TidingsExportVersion1Preferences
    sources: list[ExportSource]
    subscriptions: list[ExportSubscription]
    runs: list[ExportRun]
    content_states: list[ExportContentState]
    folders: list[ExportFolder] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        format_ = self.format_

        exported_at = self.exported_at.isoformat()

        instance = self.instance.to_dict()

        scope = self.scope.value

        account = self.account.to_dict()

        preferences = self.preferences.to_dict()

        sources = []
        for sources_item_data in self.sources:
            sources_item = sources_item_data.to_dict()
            sources.append(sources_item)

        subscriptions = []
        for subscriptions_item_data in self.subscriptions:
            subscriptions_item = subscriptions_item_data.to_dict()
            subscriptions.append(subscriptions_item)

        runs = []
        for runs_item_data in self.runs:
            runs_item = runs_item_data.to_dict()
            runs.append(runs_item)

        content_states = []
        for content_states_item_data in self.content_states:
            content_states_item = content_states_item_data.to_dict()
            content_states.append(content_states_item)

        folders: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.folders, Unset):
            folders = []
            for folders_item_data in self.folders:
                folders_item = folders_item_data.to_dict()
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
        from ..models.export_content_state import ExportContentState  # noqa: PLC0415
        from ..models.export_folder import ExportFolder  # noqa: PLC0415
        from ..models.export_run import ExportRun  # noqa: PLC0415
        from ..models.export_source import ExportSource  # noqa: PLC0415
        from ..models.export_subscription import ExportSubscription  # noqa: PLC0415
        from ..models.tidings_export_version_1_account import (
            TidingsExportVersion1Account,  # noqa: PLC0415
        )
        from ..models.tidings_export_version_1_instance import (
            TidingsExportVersion1Instance,  # noqa: PLC0415
        )
        from ..models.tidings_export_version_1_preferences import (
            TidingsExportVersion1Preferences,  # noqa: PLC0415
        )

        d = dict(src_dict)
        format_ = cast(Literal["tidings-export@1"], d.pop("format"))
        if format_ != "tidings-export@1":
            raise ValueError(
                f"format must match const 'tidings-export@1', got '{format_}'"
            )

        exported_at = datetime.datetime.fromisoformat(d.pop("exported_at"))

        instance = TidingsExportVersion1Instance.from_dict(d.pop("instance"))

        scope = TidingsExportVersion1Scope(d.pop("scope"))

        account = TidingsExportVersion1Account.from_dict(d.pop("account"))

        preferences = TidingsExportVersion1Preferences.from_dict(d.pop("preferences"))

        sources = []
        _sources = d.pop("sources")
        for sources_item_data in _sources:
            sources_item = ExportSource.from_dict(sources_item_data)

            sources.append(sources_item)

        subscriptions = []
        _subscriptions = d.pop("subscriptions")
        for subscriptions_item_data in _subscriptions:
            subscriptions_item = ExportSubscription.from_dict(subscriptions_item_data)

            subscriptions.append(subscriptions_item)

        runs = []
        _runs = d.pop("runs")
        for runs_item_data in _runs:
            runs_item = ExportRun.from_dict(runs_item_data)

            runs.append(runs_item)

        content_states = []
        _content_states = d.pop("content_states")
        for content_states_item_data in _content_states:
            content_states_item = ExportContentState.from_dict(content_states_item_data)

            content_states.append(content_states_item)

        _folders = d.pop("folders", UNSET)
        folders: list[ExportFolder] | Unset = UNSET
        if _folders is not UNSET:
            folders = []
            for folders_item_data in _folders:
                folders_item = ExportFolder.from_dict(folders_item_data)

                folders.append(folders_item)

        tidings_export_version_1 = cls(
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

        return tidings_export_version_1
