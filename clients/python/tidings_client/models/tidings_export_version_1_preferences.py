from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..models.tidings_export_version_1_preferences_locale_mode import (
    TidingsExportVersion1PreferencesLocaleMode,
)

T = TypeVar("T", bound="TidingsExportVersion1Preferences")


@_attrs_define
class TidingsExportVersion1Preferences:
    """The account's language, time zone and how the language is chosen.

    Attributes:
        ui_locale (str):
        timezone (str):
        locale_mode (TidingsExportVersion1PreferencesLocaleMode):
    """

    ui_locale: str
    timezone: str
    locale_mode: TidingsExportVersion1PreferencesLocaleMode

    def to_dict(self) -> dict[str, Any]:
        ui_locale = self.ui_locale

        timezone = self.timezone

        locale_mode = self.locale_mode.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "ui_locale": ui_locale,
                "timezone": timezone,
                "locale_mode": locale_mode,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        ui_locale = d.pop("ui_locale")

        timezone = d.pop("timezone")

        locale_mode = TidingsExportVersion1PreferencesLocaleMode(d.pop("locale_mode"))

        tidings_export_version_1_preferences = cls(
            ui_locale=ui_locale,
            timezone=timezone,
            locale_mode=locale_mode,
        )

        return tidings_export_version_1_preferences
