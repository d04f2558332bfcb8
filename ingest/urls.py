from django.urls import path

from ingest import views

app_name = "ingest"
urlpatterns = [
    path("", views.source_list, name="list"),
    path("<int:user_source_id>/remove/", views.source_remove, name="remove"),
]
