"""Every model is in the Django admin, and each list and add page renders."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.apps import apps
from django.contrib import admin
from django.db import transaction
from django.test import override_settings
from django.urls import reverse

from digests.demo import set_up_demo

PROJECT_APPS = ("ingest", "digests", "inbox", "topics", "billing", "watches")


def test_every_project_model_is_registered():
    missing = [
        f"{model._meta.app_label}.{model.__name__}"
        for app in PROJECT_APPS
        for model in apps.get_app_config(app).get_models()
        if model not in admin.site._registry
    ]
    assert missing == []


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker, tmp_path_factory):
    """The demo, set up once for the module (about 50 models) inside a transaction that is
    rolled back afterwards; each test's own transaction (`db`) nests in it and rolls back to
    it, so every test still starts from the same demo."""
    with (
        override_settings(DATA_DIR=tmp_path_factory.mktemp("admin-demo")),
        django_db_blocker.unblock(),
    ):
        outer = transaction.atomic()
        outer.__enter__()
        try:
            set_up_demo(now=datetime(2026, 11, 20, 9, 0, tzinfo=UTC))
            yield
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


@pytest.mark.parametrize(
    "model",
    [m for m in admin.site._registry if m._meta.app_label in PROJECT_APPS],
    ids=lambda m: f"{m._meta.app_label}.{m.__name__}",
)
def test_admin_list_and_change_pages_render_with_data(demo, db, client, model):
    client.login(username="demo@tidings.local", password="read-the-tidings-demo")
    info = (model._meta.app_label, model._meta.model_name)
    changelist = client.get(reverse(f"admin:{info[0]}_{info[1]}_changelist"))
    assert changelist.status_code == 200
    first = model.objects.first()
    if first is not None:
        change = client.get(reverse(f"admin:{info[0]}_{info[1]}_change", args=[first.pk]))
        assert change.status_code == 200
