from django.urls import path

from ingest.crawl import api as api_crawl
from ingest.library import api
from ingest.pages import api as api_pages
from ingest.search import api as api_search
from ingest.watch import api as api_watch

urlpatterns = [
    path("sources", api.SourceListView.as_view(), name="api-sources"),
    path("sources/<int:user_source_id>", api.SourceDetailView.as_view(), name="api-source"),
    path("sources/opml", api.OPMLView.as_view(), name="api-sources-opml"),
    path("sources/crawls", api_crawl.CrawlListView.as_view(), name="api-sources-crawls"),
    path("sources/searches", api_search.SearchListView.as_view(), name="api-sources-searches"),
    path("sources/lists", api_watch.ListWatchView.as_view(), name="api-sources-lists"),
    path(
        "sources/lists/<int:user_source_id>",
        api_watch.ListWatchDetailView.as_view(),
        name="api-sources-list",
    ),
    path("sources/pages", api_pages.SavePageView.as_view(), name="api-sources-pages"),
    path("packs", api.PackListView.as_view(), name="api-packs"),
    path("packs/<slug:key>/install", api.PackInstallView.as_view(), name="api-pack-install"),
]
