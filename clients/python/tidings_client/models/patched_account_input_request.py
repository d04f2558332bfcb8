from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.language_enum import LanguageEnum
from ..models.timezone_enum import TimezoneEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedAccountInputRequest")


@_attrs_define
class PatchedAccountInputRequest:
    """
    Attributes:
        language (LanguageEnum | Unset): * `auto` - auto
            * `en` - en
            * `zh-hans` - zh-hans
        timezone (TimezoneEnum | Unset):
    """

    language: LanguageEnum | Unset = UNSET
    timezone: TimezoneEnum | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        language: str | Unset = UNSET
        if not isinstance(self.language, Unset):
            language = self.language.value

        timezone: str | Unset = UNSET
        if not isinstance(self.timezone, Unset):
            timezone = self.timezone.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if language is not UNSET:
            field_dict["language"] = language
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        _language = d.pop("language", UNSET)
        language: LanguageEnum | Unset
        if isinstance(_language, Unset):
            language = UNSET
        else:
            language = LanguageEnum(_language)

        _timezone = d.pop("timezone", UNSET)
        timezone: TimezoneEnum | Unset
        if isinstance(_timezone, Unset):
            timezone = UNSET
        else:
            timezone = TimezoneEnum(_timezone)

        patched_account_input_request = cls(
            language=language,
            timezone=timezone,
        )

        return patched_account_input_request
