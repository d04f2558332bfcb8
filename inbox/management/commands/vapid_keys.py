"""Print a new VAPID key pair for Web Push, as the environment variables Tidings reads."""

from __future__ import annotations

import base64

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair (TIDINGS_VAPID_PRIVATE_KEY / TIDINGS_VAPID_PUBLIC_KEY) for "
        "Web Push. Generate it once: browsers' push subscriptions are bound to the public key."
    )

    def handle(self, *args, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        public = key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.stdout.write(f"TIDINGS_VAPID_PRIVATE_KEY={_b64url(private)}")
        self.stdout.write(f"TIDINGS_VAPID_PUBLIC_KEY={_b64url(public)}")
