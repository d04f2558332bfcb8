"""/api/greader/… and /api/fever/ (mounted in config/urls.py before /api/'s JSON API)."""

from django.urls import path

from inbox.readerapi import fever, greader

R = "greader/reader/api/0/"

urlpatterns = [
    path("greader/accounts/ClientLogin", greader.client_login, name="greader-login"),
    path(R + "token", greader.token, name="greader-token"),
    path(R + "user-info", greader.user_info, name="greader-user-info"),
    path(R + "subscription/list", greader.subscription_list, name="greader-subscriptions"),
    path(R + "subscription/quickadd", greader.subscription_quickadd, name="greader-quickadd"),
    path(R + "subscription/edit", greader.subscription_edit, name="greader-subscription-edit"),
    path(R + "tag/list", greader.tag_list, name="greader-tags"),
    path(R + "rename-tag", greader.rename_tag, name="greader-rename-tag"),
    path(R + "disable-tag", greader.disable_tag, name="greader-disable-tag"),
    path(R + "unread-count", greader.unread_count, name="greader-unread-count"),
    path(R + "stream/items/ids", greader.stream_item_ids, name="greader-item-ids"),
    path(R + "stream/items/contents", greader.stream_items_contents, name="greader-items"),
    path(R + "stream/contents", greader.stream_contents, name="greader-stream"),
    path(R + "stream/contents/<path:stream_id>", greader.stream_contents),
    path(R + "edit-tag", greader.edit_tag, name="greader-edit-tag"),
    path(R + "mark-all-as-read", greader.mark_all_as_read, name="greader-mark-all"),
    path("fever/", fever.fever, name="fever"),
]
