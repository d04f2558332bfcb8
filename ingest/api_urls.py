from django.urls import path

from ingest.crawl import api as api_crawl
from ingest.library import api
from ingest.newsletters import api as api_newsletters
from ingest.newsletters import webhook as newsletters_webhook
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
    path("folders", api.FolderListView.as_view(), name="api-folders"),
    path("folders/<int:folder_id>", api.FolderDetailView.as_view(), name="api-folder"),
    path("packs", api.PackListView.as_view(), name="api-packs"),
    path("packs/<slug:key>/install", api.PackInstallView.as_view(), name="api-pack-install"),
]

urlpatterns += [
    path(
        "newsletters/addresses",
        api_newsletters.AddressListView.as_view(),
        name="api-newsletter-addresses",
    ),
    path(
        "newsletters/addresses/<int:address_id>",
        api_newsletters.AddressDetailView.as_view(),
        name="api-newsletter-address",
    ),
    path(
        "newsletters/addresses/<int:address_id>/messages",
        api_newsletters.AddressMessagesView.as_view(),
        name="api-newsletter-messages",
    ),
    path(
        "newsletters/addresses/<int:address_id>/senders",
        api_newsletters.AllowSenderView.as_view(),
        name="api-newsletter-senders",
    ),
    path(
        "public/newsletters/inbound/mailgun",
        newsletters_webhook.MailgunInboundView.as_view(),
        name="api-newsletter-mailgun",
    ),
]
