from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.refused_source import RefusedSource


T = TypeVar("T", bound="ImportSummary")


@_attrs_define
class ImportSummary:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            already_imported (bool): This very document was imported before: nothing changed.
            checksum (str): SHA-256 of the document, as recorded.
            sources_added (int): Sources added to your library.
            sources_matched (int): Sources you already had.
            sources_refused (list[RefusedSource]): Sources refused (with the reason in the job).
            subscriptions_created (int): Subscriptions created.
            subscriptions_matched (int): Subscriptions you already had.
            subscriptions_paused_by_plan (int): Subscriptions created paused: beyond your plan.
            runs_created (int): Runs (briefs) created.
            runs_matched (int): Runs you already had.
            runs_skipped_unfinished (int): Runs left out: not finished when exported.
            run_items_created (int): Brief items created.
            content_states_created (int): Marks on items created.
            content_states_updated (int): Marks on items changed.
    """

    already_imported: bool
    checksum: str
    sources_added: int
    sources_matched: int
    sources_refused: list[RefusedSource]
    subscriptions_created: int
    subscriptions_matched: int
    subscriptions_paused_by_plan: int
    runs_created: int
    runs_matched: int
    runs_skipped_unfinished: int
    run_items_created: int
    content_states_created: int
    content_states_updated: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        already_imported = self.already_imported

        checksum = self.checksum

        sources_added = self.sources_added

        sources_matched = self.sources_matched

        sources_refused = []
        for sources_refused_item_data in self.sources_refused:
            sources_refused_item = sources_refused_item_data.to_dict()
            sources_refused.append(sources_refused_item)

        subscriptions_created = self.subscriptions_created

        subscriptions_matched = self.subscriptions_matched

        subscriptions_paused_by_plan = self.subscriptions_paused_by_plan

        runs_created = self.runs_created

        runs_matched = self.runs_matched

        runs_skipped_unfinished = self.runs_skipped_unfinished

        run_items_created = self.run_items_created

        content_states_created = self.content_states_created

        content_states_updated = self.content_states_updated

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "already_imported": already_imported,
                "checksum": checksum,
                "sources_added": sources_added,
                "sources_matched": sources_matched,
                "sources_refused": sources_refused,
                "subscriptions_created": subscriptions_created,
                "subscriptions_matched": subscriptions_matched,
                "subscriptions_paused_by_plan": subscriptions_paused_by_plan,
                "runs_created": runs_created,
                "runs_matched": runs_matched,
                "runs_skipped_unfinished": runs_skipped_unfinished,
                "run_items_created": run_items_created,
                "content_states_created": content_states_created,
                "content_states_updated": content_states_updated,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.refused_source import RefusedSource  # noqa: PLC0415

        d = dict(src_dict)
        already_imported = d.pop("already_imported")

        checksum = d.pop("checksum")

        sources_added = d.pop("sources_added")

        sources_matched = d.pop("sources_matched")

        sources_refused = []
        _sources_refused = d.pop("sources_refused")
        for sources_refused_item_data in _sources_refused:
            sources_refused_item = RefusedSource.from_dict(sources_refused_item_data)

            sources_refused.append(sources_refused_item)

        subscriptions_created = d.pop("subscriptions_created")

        subscriptions_matched = d.pop("subscriptions_matched")

        subscriptions_paused_by_plan = d.pop("subscriptions_paused_by_plan")

        runs_created = d.pop("runs_created")

        runs_matched = d.pop("runs_matched")

        runs_skipped_unfinished = d.pop("runs_skipped_unfinished")

        run_items_created = d.pop("run_items_created")

        content_states_created = d.pop("content_states_created")

        content_states_updated = d.pop("content_states_updated")

        import_summary = cls(
            already_imported=already_imported,
            checksum=checksum,
            sources_added=sources_added,
            sources_matched=sources_matched,
            sources_refused=sources_refused,
            subscriptions_created=subscriptions_created,
            subscriptions_matched=subscriptions_matched,
            subscriptions_paused_by_plan=subscriptions_paused_by_plan,
            runs_created=runs_created,
            runs_matched=runs_matched,
            runs_skipped_unfinished=runs_skipped_unfinished,
            run_items_created=run_items_created,
            content_states_created=content_states_created,
            content_states_updated=content_states_updated,
        )

        import_summary.additional_properties = d
        return import_summary

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
