"""Contains all the data models used in inputs/outputs"""

from .account import Account
from .action_enum import ActionEnum
from .add_crawl_request import AddCrawlRequest
from .add_search_request import AddSearchRequest
from .add_source_request import AddSourceRequest
from .address import Address
from .allow_sender_request import AllowSenderRequest
from .apprise_routes import AppriseRoutes
from .apprise_routes_input_request import AppriseRoutesInputRequest
from .apprise_target import AppriseTarget
from .apprise_target_input_request import AppriseTargetInputRequest
from .apprise_test_result import AppriseTestResult
from .balance import Balance
from .billing_stats import BillingStats
from .billing_stats_accounts_by_tier import BillingStatsAccountsByTier
from .billing_stats_by_kind import BillingStatsByKind
from .billing_stats_by_operation import BillingStatsByOperation
from .billing_stats_by_tier import BillingStatsByTier
from .blank_enum import BlankEnum
from .bulk_action_request import BulkActionRequest
from .bulk_action_result import BulkActionResult
from .cache_clear_result import CacheClearResult
from .cache_figures import CacheFigures
from .cache_stats import CacheStats
from .cache_stats_by_kind import CacheStatsByKind
from .channel_enum import ChannelEnum
from .crawl_source import CrawlSource
from .create_address_request import CreateAddressRequest
from .delivery import Delivery
from .delivery_status_enum import DeliveryStatusEnum
from .edition import Edition
from .edition_item import EditionItem
from .edition_summary import EditionSummary
from .error import Error
from .error_code import ErrorCode
from .error_detail import ErrorDetail
from .error_detail_field_codes import ErrorDetailFieldCodes
from .error_detail_fields import ErrorDetailFields
from .estimate import Estimate
from .event_enum import EventEnum
from .export_content_state import ExportContentState
from .export_document_request import ExportDocumentRequest
from .export_folder import ExportFolder
from .export_run import ExportRun
from .export_run_item import ExportRunItem
from .export_run_status import ExportRunStatus
from .export_run_trigger import ExportRunTrigger
from .export_source import ExportSource
from .export_source_config import ExportSourceConfig
from .export_source_type import ExportSourceType
from .export_subscription import ExportSubscription
from .export_subscription_language_mode import ExportSubscriptionLanguageMode
from .export_subscription_redelivery import ExportSubscriptionRedelivery
from .export_subscription_sources_item import ExportSubscriptionSourcesItem
from .export_subscription_status import ExportSubscriptionStatus
from .fetch_health import FetchHealth
from .fetch_outcome_counts import FetchOutcomeCounts
from .field_error_code import FieldErrorCode
from .folder import Folder
from .folder_input_request import FolderInputRequest
from .follow_request import FollowRequest
from .format_enum import FormatEnum
from .import_error import ImportError_
from .import_error_fields import ImportErrorFields
from .import_job import ImportJob
from .import_job_status_enum import ImportJobStatusEnum
from .import_report import ImportReport
from .import_summary import ImportSummary
from .inbound_message import InboundMessage
from .inbound_message_status_enum import InboundMessageStatusEnum
from .inbox_action_request import InboxActionRequest
from .inbox_item import InboxItem
from .inbox_item_page import InboxItemPage
from .inbox_state import InboxState
from .inbox_stats import InboxStats
from .interests import Interests
from .interests_query_request import InterestsQueryRequest
from .kind_enum import KindEnum
from .kind_total import KindTotal
from .language_enum import LanguageEnum
from .language_mode_enum import LanguageModeEnum
from .length_enum import LengthEnum
from .library_source import LibrarySource
from .limits import Limits
from .list_watch_input_request import ListWatchInputRequest
from .llm_spend import LLMSpend
from .new_token import NewToken
from .new_transfer_code import NewTransferCode
from .notify_enum import NotifyEnum
from .operation_spend import OperationSpend
from .opml_upload_request import OPMLUploadRequest
from .outline_result import OutlineResult
from .outline_result_status_enum import OutlineResultStatusEnum
from .owned_topic import OwnedTopic
from .owned_topic_status_enum import OwnedTopicStatusEnum
from .pack import Pack
from .pack_install import PackInstall
from .pack_source import PackSource
from .paginated_apprise_target_list import PaginatedAppriseTargetList
from .paginated_delivery_list import PaginatedDeliveryList
from .paginated_folder_list import PaginatedFolderList
from .paginated_library_source_list import PaginatedLibrarySourceList
from .paginated_owned_topic_list import PaginatedOwnedTopicList
from .paginated_pack_list import PaginatedPackList
from .paginated_push_device_list import PaginatedPushDeviceList
from .paginated_run_list import PaginatedRunList
from .paginated_subscription_list import PaginatedSubscriptionList
from .paginated_token_list import PaginatedTokenList
from .paginated_topic_list import PaginatedTopicList
from .paginated_transaction_list import PaginatedTransactionList
from .paginated_watch_list import PaginatedWatchList
from .patched_account_input_request import PatchedAccountInputRequest
from .patched_folder_input_request import PatchedFolderInputRequest
from .patched_move_source_request import PatchedMoveSourceRequest
from .patched_subscription_input_request import PatchedSubscriptionInputRequest
from .patched_subscription_input_request_source_weights import (
    PatchedSubscriptionInputRequestSourceWeights,
)
from .patched_topic_changes_request import PatchedTopicChangesRequest
from .patched_watch_input_request import PatchedWatchInputRequest
from .patched_watch_settings_input_request import PatchedWatchSettingsInputRequest
from .platform_spend import PlatformSpend
from .platform_stats import PlatformStats
from .preview import Preview
from .preview_item import PreviewItem
from .provider_enum import ProviderEnum
from .public_topics_sort import PublicTopicsSort
from .publish_request import PublishRequest
from .pull_request import PullRequest
from .push_config import PushConfig
from .push_device import PushDevice
from .push_device_input_request import PushDeviceInputRequest
from .push_keys_request import PushKeysRequest
from .reading_levels_enum import ReadingLevelsEnum
from .redeem_request import RedeemRequest
from .redelivery_enum import RedeliveryEnum
from .refused_source import RefusedSource
from .render_enum import RenderEnum
from .run import Run
from .run_detail import RunDetail
from .run_item import RunItem
from .run_status_counts import RunStatusCounts
from .run_status_enum import RunStatusEnum
from .runs import Runs
from .save_page_request import SavePageRequest
from .saved_page import SavedPage
from .saved_page_item import SavedPageItem
from .schedule_preview import SchedulePreview
from .search_source import SearchSource
from .secret import Secret
from .sections_enum import SectionsEnum
from .selector_kind_enum import SelectorKindEnum
from .shared_library_set import SharedLibrarySet
from .shared_subscription_set import SharedSubscriptionSet
from .source_enum import SourceEnum
from .source_set_sharing import SourceSetSharing
from .source_status_counts import SourceStatusCounts
from .subscription import Subscription
from .subscription_counts import SubscriptionCounts
from .subscription_draft_request import SubscriptionDraftRequest
from .subscription_draft_request_source_weights import (
    SubscriptionDraftRequestSourceWeights,
)
from .subscription_input_request import SubscriptionInputRequest
from .subscription_input_request_source_weights import (
    SubscriptionInputRequestSourceWeights,
)
from .subscription_source_weights import SubscriptionSourceWeights
from .subscription_status_counts import SubscriptionStatusCounts
from .subscription_status_enum import SubscriptionStatusEnum
from .tidings_export_version_1 import TidingsExportVersion1
from .tidings_export_version_1_account import TidingsExportVersion1Account
from .tidings_export_version_1_instance import TidingsExportVersion1Instance
from .tidings_export_version_1_preferences import TidingsExportVersion1Preferences
from .tidings_export_version_1_preferences_locale_mode import (
    TidingsExportVersion1PreferencesLocaleMode,
)
from .tidings_export_version_1_scope import TidingsExportVersion1Scope
from .tier_enum import TierEnum
from .timezone_enum import TimezoneEnum
from .token import Token
from .token_input_request import TokenInputRequest
from .token_scope_enum import TokenScopeEnum
from .top_user import TopUser
from .topic import Topic
from .topic_detail import TopicDetail
from .transaction import Transaction
from .transfer_code_input_request import TransferCodeInputRequest
from .transfer_scope_enum import TransferScopeEnum
from .trigger_enum import TriggerEnum
from .user_counts import UserCounts
from .visibility_enum import VisibilityEnum
from .watch import Watch
from .watch_change import WatchChange
from .watch_detail import WatchDetail
from .watch_input_request import WatchInputRequest
from .watch_input_trigger_enum import WatchInputTriggerEnum
from .watch_preview import WatchPreview
from .watched_list import WatchedList
from .webhook import Webhook
from .webhook_brief_published import WebhookBriefPublished
from .webhook_brief_published_data import WebhookBriefPublishedData
from .webhook_brief_published_data_items_item import WebhookBriefPublishedDataItemsItem
from .webhook_brief_published_data_overview import WebhookBriefPublishedDataOverview
from .webhook_brief_published_data_subscription import (
    WebhookBriefPublishedDataSubscription,
)
from .webhook_brief_published_type import WebhookBriefPublishedType
from .webhook_test import WebhookTest
from .webhook_test_data import WebhookTestData
from .webhook_test_data_subscription import WebhookTestDataSubscription
from .webhook_test_type import WebhookTestType

__all__ = (
    "Account",
    "ActionEnum",
    "AddCrawlRequest",
    "Address",
    "AddSearchRequest",
    "AddSourceRequest",
    "AllowSenderRequest",
    "AppriseRoutes",
    "AppriseRoutesInputRequest",
    "AppriseTarget",
    "AppriseTargetInputRequest",
    "AppriseTestResult",
    "Balance",
    "BillingStats",
    "BillingStatsAccountsByTier",
    "BillingStatsByKind",
    "BillingStatsByOperation",
    "BillingStatsByTier",
    "BlankEnum",
    "BulkActionRequest",
    "BulkActionResult",
    "CacheClearResult",
    "CacheFigures",
    "CacheStats",
    "CacheStatsByKind",
    "ChannelEnum",
    "CrawlSource",
    "CreateAddressRequest",
    "Delivery",
    "DeliveryStatusEnum",
    "Edition",
    "EditionItem",
    "EditionSummary",
    "Error",
    "ErrorCode",
    "ErrorDetail",
    "ErrorDetailFieldCodes",
    "ErrorDetailFields",
    "Estimate",
    "EventEnum",
    "ExportContentState",
    "ExportDocumentRequest",
    "ExportFolder",
    "ExportRun",
    "ExportRunItem",
    "ExportRunStatus",
    "ExportRunTrigger",
    "ExportSource",
    "ExportSourceConfig",
    "ExportSourceType",
    "ExportSubscription",
    "ExportSubscriptionLanguageMode",
    "ExportSubscriptionRedelivery",
    "ExportSubscriptionSourcesItem",
    "ExportSubscriptionStatus",
    "FetchHealth",
    "FetchOutcomeCounts",
    "FieldErrorCode",
    "Folder",
    "FolderInputRequest",
    "FollowRequest",
    "FormatEnum",
    "ImportError_",
    "ImportErrorFields",
    "ImportJob",
    "ImportJobStatusEnum",
    "ImportReport",
    "ImportSummary",
    "InboundMessage",
    "InboundMessageStatusEnum",
    "InboxActionRequest",
    "InboxItem",
    "InboxItemPage",
    "InboxState",
    "InboxStats",
    "Interests",
    "InterestsQueryRequest",
    "KindEnum",
    "KindTotal",
    "LanguageEnum",
    "LanguageModeEnum",
    "LengthEnum",
    "LibrarySource",
    "Limits",
    "ListWatchInputRequest",
    "LLMSpend",
    "NewToken",
    "NewTransferCode",
    "NotifyEnum",
    "OperationSpend",
    "OPMLUploadRequest",
    "OutlineResult",
    "OutlineResultStatusEnum",
    "OwnedTopic",
    "OwnedTopicStatusEnum",
    "Pack",
    "PackInstall",
    "PackSource",
    "PaginatedAppriseTargetList",
    "PaginatedDeliveryList",
    "PaginatedFolderList",
    "PaginatedLibrarySourceList",
    "PaginatedOwnedTopicList",
    "PaginatedPackList",
    "PaginatedPushDeviceList",
    "PaginatedRunList",
    "PaginatedSubscriptionList",
    "PaginatedTokenList",
    "PaginatedTopicList",
    "PaginatedTransactionList",
    "PaginatedWatchList",
    "PatchedAccountInputRequest",
    "PatchedFolderInputRequest",
    "PatchedMoveSourceRequest",
    "PatchedSubscriptionInputRequest",
    "PatchedSubscriptionInputRequestSourceWeights",
    "PatchedTopicChangesRequest",
    "PatchedWatchInputRequest",
    "PatchedWatchSettingsInputRequest",
    "PlatformSpend",
    "PlatformStats",
    "Preview",
    "PreviewItem",
    "ProviderEnum",
    "PublicTopicsSort",
    "PublishRequest",
    "PullRequest",
    "PushConfig",
    "PushDevice",
    "PushDeviceInputRequest",
    "PushKeysRequest",
    "ReadingLevelsEnum",
    "RedeemRequest",
    "RedeliveryEnum",
    "RefusedSource",
    "RenderEnum",
    "Run",
    "RunDetail",
    "RunItem",
    "Runs",
    "RunStatusCounts",
    "RunStatusEnum",
    "SavedPage",
    "SavedPageItem",
    "SavePageRequest",
    "SchedulePreview",
    "SearchSource",
    "Secret",
    "SectionsEnum",
    "SelectorKindEnum",
    "SharedLibrarySet",
    "SharedSubscriptionSet",
    "SourceEnum",
    "SourceSetSharing",
    "SourceStatusCounts",
    "Subscription",
    "SubscriptionCounts",
    "SubscriptionDraftRequest",
    "SubscriptionDraftRequestSourceWeights",
    "SubscriptionInputRequest",
    "SubscriptionInputRequestSourceWeights",
    "SubscriptionSourceWeights",
    "SubscriptionStatusCounts",
    "SubscriptionStatusEnum",
    "TidingsExportVersion1",
    "TidingsExportVersion1Account",
    "TidingsExportVersion1Instance",
    "TidingsExportVersion1Preferences",
    "TidingsExportVersion1PreferencesLocaleMode",
    "TidingsExportVersion1Scope",
    "TierEnum",
    "TimezoneEnum",
    "Token",
    "TokenInputRequest",
    "TokenScopeEnum",
    "Topic",
    "TopicDetail",
    "TopUser",
    "Transaction",
    "TransferCodeInputRequest",
    "TransferScopeEnum",
    "TriggerEnum",
    "UserCounts",
    "VisibilityEnum",
    "Watch",
    "WatchChange",
    "WatchDetail",
    "WatchedList",
    "WatchInputRequest",
    "WatchInputTriggerEnum",
    "WatchPreview",
    "Webhook",
    "WebhookBriefPublished",
    "WebhookBriefPublishedData",
    "WebhookBriefPublishedDataItemsItem",
    "WebhookBriefPublishedDataOverview",
    "WebhookBriefPublishedDataSubscription",
    "WebhookBriefPublishedType",
    "WebhookTest",
    "WebhookTestData",
    "WebhookTestDataSubscription",
    "WebhookTestType",
)
