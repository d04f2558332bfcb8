from django.urls import path

from ingest.crawl import views as views_crawl
from ingest.library import views
from ingest.newsletters import views as views_newsletters
from ingest.pages import views as views_pages
from ingest.search import views as views_search
from ingest.watch import views as views_watch

app_name = "ingest"
urlpatterns = [
    path("", views.source_list, name="list"),
    path("<int:user_source_id>/remove/", views.source_remove, name="remove"),
    path("<int:user_source_id>/folder/", views.source_move, name="move"),
    path("folders/", views.folder_create, name="folder-create"),
    path("folders/<int:folder_id>/rename/", views.folder_rename, name="folder-rename"),
    path("folders/<int:folder_id>/delete/", views.folder_delete, name="folder-delete"),
    path("packs/<slug:key>/install/", views.pack_install, name="pack-install"),
    path("opml/import/", views.opml_import, name="opml-import"),
    path("opml/export/", views.opml_export, name="opml-export"),
    path("crawl/", views_crawl.crawl_add, name="crawl-add"),
    path("search/", views_search.search_add, name="search-add"),
    path("watch/", views_watch.watch_list, name="watch"),
    path("watch/<int:user_source_id>/settings/", views_watch.watch_settings, name="watch-settings"),
    path("save/", views_pages.save_page, name="save-page"),
    path("newsletters/", views_newsletters.newsletter_list, name="newsletters"),
    path("newsletters/new/", views_newsletters.newsletter_add, name="newsletter-add"),
    path(
        "newsletters/<int:address_id>/revoke/",
        views_newsletters.newsletter_revoke,
        name="newsletter-revoke",
    ),
    path(
        "newsletters/held/<int:message_id>/allow/",
        views_newsletters.newsletter_allow,
        name="newsletter-allow",
    ),
    path(
        "newsletters/<int:source_id>/issues/<slug:key>/",
        views_newsletters.newsletter_issue,
        name="newsletter-issue",
    ),
]
