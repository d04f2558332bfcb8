from django.urls import path

from watches import api

urlpatterns = [
    path("watches", api.WatchListView.as_view(), name="api-watches"),
    path("watches/preview", api.WatchPreviewView.as_view(), name="api-watches-preview"),
    path("watches/<int:watch_id>", api.WatchDetailView.as_view(), name="api-watch"),
]
