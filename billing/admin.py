from django.contrib import admin

from billing.models import Account, CreditTransaction


@admin.register(Account)
class AccountAdmin(admin.ModelAdmin):
    list_display = ["user", "tier", "monthly_quota", "period_start"]
    list_filter = ["tier"]
    search_fields = ["user__email"]
    raw_id_fields = ["user"]


@admin.register(CreditTransaction)
class CreditTransactionAdmin(admin.ModelAdmin):
    list_display = ["account", "kind", "amount", "run", "created_at"]
    list_filter = ["kind"]
    search_fields = ["account__user__email", "idempotency_key"]
    raw_id_fields = ["account", "run"]
    readonly_fields = ["idempotency_key", "created_at"]
