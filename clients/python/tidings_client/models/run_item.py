from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="RunItem")


@_attrs_define
class RunItem:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            rank (int): Its place in the brief (1 first).
            title (str): Its title, as its source gives it.
            url (str): Its address (http or https).
            summary (str): A short summary of the item.
            summary_generator (str): 'extractive' or the LLM model that wrote it.
            source_name (str): The name of the source it came from.
            reason (str): Why it was selected, in your language.
            overall (int): Its overall score, 0 to 100 (the brief's picking order).
    """

    id: int
    rank: int
    title: str
    url: str
    summary: str
    summary_generator: str
    source_name: str
    reason: str
    overall: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        rank = self.rank

        title = self.title

        url = self.url

        summary = self.summary

        summary_generator = self.summary_generator

        source_name = self.source_name

        reason = self.reason

        overall = self.overall

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "rank": rank,
                "title": title,
                "url": url,
                "summary": summary,
                "summary_generator": summary_generator,
                "source_name": source_name,
                "reason": reason,
                "overall": overall,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        id = d.pop("id")

        rank = d.pop("rank")

        title = d.pop("title")

        url = d.pop("url")

        summary = d.pop("summary")

        summary_generator = d.pop("summary_generator")

        source_name = d.pop("source_name")

        reason = d.pop("reason")

        overall = d.pop("overall")

        run_item = cls(
            id=id,
            rank=rank,
            title=title,
            url=url,
            summary=summary,
            summary_generator=summary_generator,
            source_name=source_name,
            reason=reason,
            overall=overall,
        )

        run_item.additional_properties = d
        return run_item

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
