from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.import_job_status_enum import ImportJobStatusEnum

if TYPE_CHECKING:
    from ..models.import_error import ImportError_
    from ..models.import_summary import ImportSummary


T = TypeVar("T", bound="ImportJob")


@_attrs_define
class ImportJob:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            id (int): Its id: a positive whole number, stable, unique among its kind.
            status (ImportJobStatusEnum): * `queued` - Waiting for a worker
                * `running` - Importing
                * `done` - Imported
                * `failed` - Not imported
            progress_percent (int): How far the import's current pass over the file is; 100 when done.
            size_bytes (int): The size of what was sent, in bytes.
            created_at (datetime.datetime): When it was made (ISO 8601, UTC).
            started_at (datetime.datetime | None): When the work started (ISO 8601, UTC); null while queued.
            finished_at (datetime.datetime | None): When the work finished (ISO 8601, UTC); null until then.
            summary (ImportSummary | None): When done.
            error (ImportError_ | None): When failed.
    """

    id: int
    status: ImportJobStatusEnum
    progress_percent: int
    size_bytes: int
    created_at: datetime.datetime
    started_at: datetime.datetime | None
    finished_at: datetime.datetime | None
    summary: ImportSummary | None
    error: ImportError_ | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.import_error import ImportError_  # noqa: PLC0415
        from ..models.import_summary import ImportSummary  # noqa: PLC0415

        id = self.id

        status = self.status.value

        progress_percent = self.progress_percent

        size_bytes = self.size_bytes

        created_at = self.created_at.isoformat()

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        finished_at: None | str
        if isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        summary: dict[str, Any] | None
        if isinstance(self.summary, ImportSummary):
            summary = self.summary.to_dict()
        else:
            summary = self.summary

        error: dict[str, Any] | None
        if isinstance(self.error, ImportError_):
            error = self.error.to_dict()
        else:
            error = self.error

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "progress_percent": progress_percent,
                "size_bytes": size_bytes,
                "created_at": created_at,
                "started_at": started_at,
                "finished_at": finished_at,
                "summary": summary,
                "error": error,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.import_error import ImportError_  # noqa: PLC0415
        from ..models.import_summary import ImportSummary  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        status = ImportJobStatusEnum(d.pop("status"))

        progress_percent = d.pop("progress_percent")

        size_bytes = d.pop("size_bytes")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_finished_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        finished_at = _parse_finished_at(d.pop("finished_at"))

        def _parse_summary(data: object) -> ImportSummary | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                summary_type_0 = ImportSummary.from_dict(data)

                return summary_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImportSummary | None, data)

        summary = _parse_summary(d.pop("summary"))

        def _parse_error(data: object) -> ImportError_ | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_0 = ImportError_.from_dict(data)

                return error_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ImportError_ | None, data)

        error = _parse_error(d.pop("error"))

        import_job = cls(
            id=id,
            status=status,
            progress_percent=progress_percent,
            size_bytes=size_bytes,
            created_at=created_at,
            started_at=started_at,
            finished_at=finished_at,
            summary=summary,
            error=error,
        )

        import_job.additional_properties = d
        return import_job

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
