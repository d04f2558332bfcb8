from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.import_error_fields import ImportErrorFields


T = TypeVar("T", bound="ImportError_")


@_attrs_define
class ImportError_:
    """Every field is read-only: the schema then lists each as present in the answer
    (required) and never offers it as input — except those named in `answered_sometimes`,
    which an answer may leave out (documented as optional).

        Attributes:
            code (str): As the API's errors: unsupported_format, invalid…
            message (str): What went wrong, for people.
            fields (ImportErrorFields): What was wrong with which field.
            status (int): The HTTP status this refusal has elsewhere.
    """

    code: str
    message: str
    fields: ImportErrorFields
    status: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code = self.code

        message = self.message

        fields = self.fields.to_dict()

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "message": message,
                "fields": fields,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.import_error_fields import ImportErrorFields  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        message = d.pop("message")

        fields = ImportErrorFields.from_dict(d.pop("fields"))

        status = d.pop("status")

        import_error = cls(
            code=code,
            message=message,
            fields=fields,
            status=status,
        )

        import_error.additional_properties = d
        return import_error

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
