"""Folders in a user's library: create, rename, delete, and move a source into one (or out).

The console's Sources page, the JSON API and the reading apps (Google Reader labels, Fever
groups) all call these. A folder belongs to one user; a library entry is in at most one of its
user's folders. Deleting a folder keeps its sources in the library, in no folder.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from ingest.models import Folder, UserSource

MAX_NAME = 100


class FolderError(Exception):
    """A refused folder change; `field` and `message` go into form, API and protocol errors."""

    def __init__(self, message: str, *, field: str = "name", code: str = "invalid"):
        super().__init__(message)
        self.field = field
        self.message = message
        self.code = code


def clean_name(name: str, *, field: str = "name") -> str:
    name = " ".join((name or "").split())
    if not name:
        raise FolderError(_("Give the folder a name."), field=field, code="required")
    if len(name) > MAX_NAME:
        raise FolderError(
            _("A folder name has at most %(max)s characters.") % {"max": MAX_NAME},
            field=field,
            code="max_length",
        )
    return name


def _taken(name: str, field: str) -> FolderError:
    return FolderError(
        _("You already have a folder named %(name)s.") % {"name": name}, field=field, code="invalid"
    )


def create_folder(user, name: str, *, now: datetime, field: str = "name") -> Folder:
    name = clean_name(name, field=field)
    try:
        with transaction.atomic():
            return Folder.objects.create(user=user, name=name, created_at=now)
    except IntegrityError:
        raise _taken(name, field) from None


def folder_named(user, name: str, *, now: datetime, field: str = "name") -> Folder:
    """The user's folder of that name, created if missing (Google Reader's labels spring into
    being when a feed is first given one)."""
    name = clean_name(name, field=field)
    folder = Folder.objects.filter(user=user, name=name).first()
    return folder or create_folder(user, name, now=now, field=field)


def rename_folder(user, folder_id: int, name: str, *, field: str = "name") -> Folder:
    folder = Folder.objects.filter(user=user, pk=folder_id).first()
    if folder is None:
        raise FolderError(_("No such folder."), field="folder", code="not_found")
    name = clean_name(name, field=field)
    if name == folder.name:
        return folder
    folder.name = name
    try:
        with transaction.atomic():
            folder.save(update_fields=["name"])
    except IntegrityError:
        raise _taken(name, field) from None
    return folder


def delete_folder(user, folder_id: int) -> bool:
    """The folder goes; its sources stay in the library (the foreign key sets them to none)."""
    deleted, _count = Folder.objects.filter(user=user, pk=folder_id).delete()
    return bool(deleted)


def move_source(user, user_source_id: int, folder_id: int | None) -> UserSource:
    """Put a library entry into one of the user's folders, or into none (folder_id None)."""
    entry = UserSource.objects.filter(user=user, pk=user_source_id).first()
    if entry is None:
        raise FolderError(_("No such source in your library."), field="source", code="not_found")
    folder = None
    if folder_id is not None:
        folder = Folder.objects.filter(user=user, pk=folder_id).first()
        if folder is None:
            raise FolderError(_("No such folder."), field="folder", code="not_found")
    if entry.folder_id != (folder.pk if folder else None):
        entry.folder = folder
        entry.save(update_fields=["folder"])
    return entry
