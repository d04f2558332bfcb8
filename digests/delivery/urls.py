"""Public delivery URLs (no login): /email/unsubscribe/<token>/."""

from django.urls import path

from digests.delivery import views

app_name = "delivery"
urlpatterns = [
    path("unsubscribe/<str:token>/", views.unsubscribe_page, name="unsubscribe"),
]
