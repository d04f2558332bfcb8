from django.urls import path

from ingest import views

app_name = "ingest"
urlpatterns = [
    path("", views.source_list, name="list"),
    path("<int:user_source_id>/remove/", views.source_remove, name="remove"),
    path("packs/<slug:key>/install/", views.pack_install, name="pack-install"),
    path("opml/import/", views.opml_import, name="opml-import"),
    path("opml/export/", views.opml_export, name="opml-export"),
]
