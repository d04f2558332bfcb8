"""`manage.py demo`: offline demo content, a demo user and one run per subscription."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import timezone

from digests.demo import set_up_demo


class Command(BaseCommand):
    help = "Seed offline demo content and a demo user (idempotent)."

    def handle(self, *args, **options):
        result = set_up_demo(now=timezone.now())
        self.stdout.write(
            f"Demo ready: {result.items_inserted} new items in the pool, "
            f"{result.runs_made} runs, {result.delivered} items delivered."
        )
        if result.topic_url:
            self.stdout.write(f"Public topic: {settings.SITE_URL}{result.topic_url}")
        self.stdout.write(f"Open {settings.SITE_URL}/ and log in as:")
        self.stdout.write(f"  email:    {result.user_email}")
        self.stdout.write(f"  password: {result.password}")
