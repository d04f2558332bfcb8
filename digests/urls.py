from django.urls import path

from digests.subscriptions import views

app_name = "digests"
urlpatterns = [
    path("", views.subscription_list, name="list"),
    path("new/", views.subscription_new, name="new"),
    path("<int:subscription_id>/", views.subscription_detail, name="detail"),
    path("<int:subscription_id>/edit/", views.subscription_edit, name="edit"),
    path("<int:subscription_id>/run/", views.subscription_run_now, name="run_now"),
    path("<int:subscription_id>/preview/", views.subscription_preview, name="preview"),
    path(
        "<int:subscription_id>/runs/<int:run_id>/retry/",
        views.run_retry,
        name="retry",
    ),
    path(
        "<int:subscription_id>/email-preview/",
        views.email_preview,
        name="email_preview",
    ),
    path(
        "<int:subscription_id>/webhook/<slug:action>/",
        views.webhook_action,
        name="webhook_action",
    ),
    path(
        "<int:subscription_id>/deliveries/<int:delivery_id>/retry/",
        views.delivery_retry,
        name="delivery_retry",
    ),
    path(
        "<int:subscription_id>/<str:change>/",
        views.subscription_state,
        name="state",
    ),
]
