from django.apps import AppConfig


class InboxConfig(AppConfig):
    name = "inbox"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from django.contrib import admin

        from inbox.forms import ThrottledAdminAuthenticationForm

        # The admin's login speaks with the same throttle as the console's.
        admin.site.login_form = ThrottledAdminAuthenticationForm
