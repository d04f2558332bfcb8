"""Folders in a user's library: create, rename, delete, and move a source into one (or out).

The console's Sources page, the JSON API and the reading apps (Google Reader labels, Fever
groups) all call these. A folder belongs to one user; a library entry is in at most one of its
user's folders. Deleting a folder keeps its sources in the library, in no folder.
"""

from __future__ import annotations

from datetime import datetime

from django.db import IntegrityError, transaction
from django.db.models import Case, Value, When
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
        _("You already have a folder named %(name)s.") % {"name": name}, field=field, code="taken"
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


# --- Filing many entries at once (OPML and account imports) -----------------------------------


def imported_name(name: str) -> str:
    """A folder name from a file: spaces collapsed, cut to MAX_NAME; "" when there is none."""
    return " ".join((name or "").split())[:MAX_NAME].strip()


def folders_named(user, names, *, now: datetime) -> dict[str, Folder]:
    """The user's folders for `names`, keyed by casefolded name, created if missing: an imported
    "news" is the "News" the user already has. Three queries however many names."""
    wanted: dict[str, str] = {}
    for name in names:
        if name := imported_name(name):
            wanted.setdefault(name.casefold(), name)  # the file's first spelling names it

    def existing() -> dict[str, Folder]:
        found: dict[str, Folder] = {}
        for folder in Folder.objects.filter(user=user).order_by("pk"):
            found.setdefault(folder.name.casefold(), folder)
        return found

    if not wanted:
        return {}
    found = existing()
    missing = [
        Folder(user=user, name=name, created_at=now)
        for key, name in wanted.items()
        if key not in found
    ]
    if missing:
        # ignore_conflicts: a folder created meanwhile under the same name is the one used.
        Folder.objects.bulk_create(missing, ignore_conflicts=True)
        found = existing()
    return {key: found[key] for key in wanted if key in found}


def file_entries(user, folder_by_entry: dict[int, str], *, now: datetime) -> int:
    """File library entries (UserSource id -> folder name) into the user's folders by name,
    creating the folders; one UPDATE for them all. Only entries in no folder are filed: where
    the user already put a source wins over an imported file. Returns how many were filed."""
    folders = folders_named(user, folder_by_entry.values(), now=now)
    entries_by_folder: dict[int, list[int]] = {}
    for entry_id, name in folder_by_entry.items():
        folder = folders.get(imported_name(name).casefold())
        if folder is not None:
            entries_by_folder.setdefault(folder.pk, []).append(entry_id)
    if not entries_by_folder:
        return 0
    ids = [entry_id for entries in entries_by_folder.values() for entry_id in entries]
    return UserSource.objects.filter(user=user, pk__in=ids, folder__isnull=True).update(
        folder=Case(
            *(
                When(pk__in=entries, then=Value(folder_id))
                for folder_id, entries in entries_by_folder.items()
            )
        )
    )
