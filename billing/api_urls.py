from django.urls import path

from billing import api

urlpatterns = [
    path("billing/balance", api.BalanceView.as_view(), name="api-billing-balance"),
    path(
        "billing/transactions", api.TransactionListView.as_view(), name="api-billing-transactions"
    ),
    path("billing/estimate", api.EstimateView.as_view(), name="api-billing-estimate"),
    path("admin/billing/stats", api.AdminBillingStatsView.as_view(), name="api-admin-billing"),
]
