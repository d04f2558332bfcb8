"""Tiers and the append-only credit ledger. Charging per run arrives with the billing issue."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Tier(models.TextChoices):
    FREE = "free", _("Free")
    BASIC = "basic", _("Basic")
    PRO = "pro", _("Pro")
    TEAM = "team", _("Team")


MONTHLY_CREDITS = {Tier.FREE: 100, Tier.BASIC: 5_000, Tier.PRO: 20_000, Tier.TEAM: 60_000}


class Account(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="billing_account"
    )
    tier = models.CharField(max_length=8, choices=Tier.choices, default=Tier.FREE)
    monthly_quota = models.PositiveIntegerField(default=MONTHLY_CREDITS[Tier.FREE])
    period_start = models.DateField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.tier})"


class CreditTransaction(models.Model):
    class Kind(models.TextChoices):
        CHARGE = "charge", _("Charge")
        REFUND = "refund", _("Refund")
        GRANT = "grant", _("Grant")
        MONTHLY_RESET = "monthly_reset", _("Monthly reset")

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="transactions")
    amount = models.IntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    run = models.ForeignKey(
        "digests.Run", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    idempotency_key = models.CharField(max_length=128, unique=True)
    breakdown = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount:+d} ({self.account_id})"
