"""Tiers, accounts and the append-only credit ledger (SPEC §3, §10).

An account's `balance` is the sum of its ledger rows for the current period: every row is
written together with the balance, in one transaction holding the account's row lock
(billing/ledger.py), and a check constraint keeps a user's balance from going below zero even
if code ever tried. A run reserves its upper-bound cost with a `CreditHold` before it starts,
so concurrent runs of one user can never together spend more than the balance.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Tier(models.TextChoices):
    FREE = "free", _("Free")
    BASIC = "basic", _("Basic")
    PRO = "pro", _("Pro")
    TEAM = "team", _("Team")


MONTHLY_CREDITS = {Tier.FREE: 100, Tier.BASIC: 5_000, Tier.PRO: 20_000, Tier.TEAM: 60_000}


class Account(models.Model):
    class Kind(models.TextChoices):
        USER = "user", _("User")
        # The one account that pays for platform work (public topic editions): it has no
        # user, no period resets, and its balance is what the platform has spent (negative).
        PLATFORM = "platform", _("Platform")

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="billing_account",
    )
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.USER)
    tier = models.CharField(max_length=8, choices=Tier.choices, default=Tier.FREE)
    monthly_quota = models.PositiveIntegerField(
        default=MONTHLY_CREDITS[Tier.FREE], help_text=_("Credits granted at each period start.")
    )
    balance = models.IntegerField(
        default=0, help_text=_("The sum of this period's ledger rows; never edited by hand.")
    )
    period_start = models.DateField(help_text=_("First day of the current period (UTC)."))
    period_end = models.DateField(
        null=True, help_text=_("First day of the next period (UTC): the next reset.")
    )
    anchor_day = models.PositiveSmallIntegerField(
        default=1, help_text=_("Day of the month periods start on (clamped to short months).")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["kind"], condition=Q(kind="platform"), name="account_one_platform"
            ),
            models.CheckConstraint(
                condition=Q(kind="platform") | Q(user__isnull=False),
                name="account_user_has_user",
            ),
            # The last line of defence against an overdraft: a user's balance is never negative.
            models.CheckConstraint(
                condition=Q(kind="platform") | Q(balance__gte=0),
                name="account_user_balance_not_negative",
            ),
        ]
        indexes = [
            models.Index(
                fields=["period_end"], condition=Q(kind="user"), name="account_period_end_idx"
            ),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.PLATFORM:
            return "Platform"
        return f"{self.user} ({self.tier})"


class CreditTransaction(models.Model):
    """One movement of credits. Rows are only ever appended (a mistake is corrected by an
    adjustment, never by editing); `idempotency_key` makes every posting safe to repeat."""

    class Kind(models.TextChoices):
        CHARGE = "charge", _("Charge")
        REFUND = "refund", _("Refund")
        GRANT = "grant", _("Grant")
        MONTHLY_RESET = "monthly_reset", _("Monthly reset")
        ADJUSTMENT = "adjustment", _("Adjustment")

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="transactions")
    amount = models.IntegerField()
    kind = models.CharField(max_length=16, choices=Kind.choices)
    run = models.ForeignKey(
        "digests.Run", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    period_start = models.DateField(
        null=True, help_text=_("The account period this row counts in.")
    )
    balance_after = models.IntegerField(null=True)
    idempotency_key = models.CharField(max_length=128, unique=True)
    breakdown = models.JSONField(default=dict, blank=True)
    reason = models.CharField(max_length=300, blank=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        help_text=_("The staff member who granted or adjusted, if anyone."),
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["account", "-id"], name="credit_account_recent_idx"),
            models.Index(fields=["run"], name="credit_run_idx"),
            models.Index(fields=["created_at"], name="credit_created_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount:+d} ({self.account_id})"


class CreditHold(models.Model):
    """Credits a run has reserved for its upper-bound cost while it runs. Released when the
    run is charged or fails; a hold whose worker died stops counting at `expires_at`."""

    account = models.ForeignKey(Account, on_delete=models.CASCADE, related_name="holds")
    run = models.OneToOneField("digests.Run", on_delete=models.CASCADE, related_name="+")
    amount = models.PositiveIntegerField()
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["account", "expires_at"], name="credithold_account_idx")]

    def __str__(self) -> str:
        return f"hold {self.amount} for run {self.run_id}"


class RetiredLedgerTotal(models.Model):
    """What deleted accounts' ledgers added up to, by calendar month (UTC), tier and kind of
    row: the only trace of a deleted account in billing. No user, no run, no row of its own —
    totals other accounts' rows are summed into too, so the platform's accounting of past
    months keeps what was spent (read-only in the admin; the live spend statistics in
    billing/stats.py count live accounts only) without keeping anything about the person
    (inbox/portability/deletion.py)."""

    month = models.DateField(help_text=_("First day of the calendar month (UTC)."))
    tier = models.CharField(max_length=8, choices=Tier.choices)
    kind = models.CharField(max_length=16, choices=CreditTransaction.Kind.choices)
    amount = models.BigIntegerField(default=0)
    rows = models.PositiveIntegerField(default=0)
    accounts = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-month", "tier", "kind"]
        constraints = [
            models.UniqueConstraint(
                fields=["month", "tier", "kind"], name="retiredledgertotal_unique"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.month:%Y-%m} {self.tier} {self.kind}: {self.amount:+d}"
