import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
application = get_wsgi_application()

from config.connection_checks import ping_only_after_a_pause  # noqa: E402 - needs settings

ping_only_after_a_pause()
