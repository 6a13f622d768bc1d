"""Contains all the data models used in inputs/outputs"""

from .action_enum import ActionEnum
from .adjustment_input_request import AdjustmentInputRequest
from .amount_input_request import AmountInputRequest
from .api_key_created import ApiKeyCreated
from .api_key_list_create_input_request import ApiKeyListCreateInputRequest
from .api_key_output import ApiKeyOutput
from .api_key_rotated import ApiKeyRotated
from .audit_disputes_list_status import AuditDisputesListStatus
from .audit_event_detail_output import AuditEventDetailOutput
from .audit_event_output import AuditEventOutput
from .audit_reports_retrieve_grouping import AuditReportsRetrieveGrouping
from .audit_reports_retrieve_kind import AuditReportsRetrieveKind
from .bet_outcome import BetOutcome
from .bet_output import BetOutput
from .bet_state import BetState
from .box_state import BoxState
from .card_posted_next import CardPostedNext
from .card_source_enum import CardSourceEnum
from .card_target import CardTarget
from .circuit_enum import CircuitEnum
from .correction_list_create_input_request import CorrectionListCreateInputRequest
from .correction_output import CorrectionOutput
from .correction_output_status_enum import CorrectionOutputStatusEnum
from .corrections_list_status import CorrectionsListStatus
from .dealer_assignment_output import DealerAssignmentOutput
from .dealer_state import DealerState
from .decision_input_request import DecisionInputRequest
from .delivery_enum import DeliveryEnum
from .device_token_created import DeviceTokenCreated
from .device_token_list_create_input_request import DeviceTokenListCreateInputRequest
from .device_token_output import DeviceTokenOutput
from .device_token_rotated import DeviceTokenRotated
from .dispute_investigate_input_request import DisputeInvestigateInputRequest
from .dispute_list_create_input_request import DisputeListCreateInputRequest
from .dispute_note_input_request import DisputeNoteInputRequest
from .dispute_note_kind_enum import DisputeNoteKindEnum
from .dispute_note_output import DisputeNoteOutput
from .dispute_output import DisputeOutput
from .dispute_output_replay_type_0 import DisputeOutputReplayType0
from .dispute_output_status_enum import DisputeOutputStatusEnum
from .dispute_resolve_input_request import DisputeResolveInputRequest
from .evidence_input_request import EvidenceInputRequest
from .funds_moved_output import FundsMovedOutput
from .game_decisions import GameDecisions
from .hand_state import HandState
from .hand_state_stakes import HandStateStakes
from .head import Head
from .head_export_output import HeadExportOutput
from .head_export_output_head import HeadExportOutputHead
from .health_output import HealthOutput
from .health_output_broker import HealthOutputBroker
from .health_output_cache import HealthOutputCache
from .health_output_database import HealthOutputDatabase
from .health_output_status_enum import HealthOutputStatusEnum
from .house_account_list_output import HouseAccountListOutput
from .leg_kind_enum import LegKindEnum
from .leg_output import LegOutput
from .me_output import MeOutput
from .mode_enum import ModeEnum
from .operator_event_output import OperatorEventOutput
from .operator_webhook_input_request import OperatorWebhookInputRequest
from .operator_webhook_output import OperatorWebhookOutput
from .outcome_enum import OutcomeEnum
from .outcome_line import OutcomeLine
from .own_webhook import OwnWebhook
from .own_webhook_input_request import OwnWebhookInputRequest
from .paginated_api_key_output_list import PaginatedApiKeyOutputList
from .paginated_audit_event_output_list import PaginatedAuditEventOutputList
from .paginated_correction_output_list import PaginatedCorrectionOutputList
from .paginated_device_token_output_list import PaginatedDeviceTokenOutputList
from .paginated_dispute_output_list import PaginatedDisputeOutputList
from .paginated_operator_event_output_list import PaginatedOperatorEventOutputList
from .paginated_player_output_list import PaginatedPlayerOutputList
from .paginated_staff_token_output_list import PaginatedStaffTokenOutputList
from .paginated_table_output_list import PaginatedTableOutputList
from .paginated_transaction_output_list import PaginatedTransactionOutputList
from .paginated_wallet_output_list import PaginatedWalletOutputList
from .phase_enum import PhaseEnum
from .played import Played
from .played_event import PlayedEvent
from .player_action import PlayerAction
from .player_list_create_input_request import PlayerListCreateInputRequest
from .player_output import PlayerOutput
from .problem import Problem
from .problem_errors_item import ProblemErrorsItem
from .public_key import PublicKey
from .public_keys_output import PublicKeysOutput
from .replacement_leg_input_request import ReplacementLegInputRequest
from .replay_difference import ReplayDifference
from .replay_line import ReplayLine
from .report_output import ReportOutput
from .report_output_chart_type_0_item import ReportOutputChartType0Item
from .report_output_columns_item import ReportOutputColumnsItem
from .report_output_parameters import ReportOutputParameters
from .report_output_period import ReportOutputPeriod
from .report_output_rows_item import ReportOutputRowsItem
from .report_output_signature import ReportOutputSignature
from .report_output_totals_item import ReportOutputTotalsItem
from .revoke_input_request import RevokeInputRequest
from .rotate_input_request import RotateInputRequest
from .round_bets_input_request import RoundBetsInputRequest
from .round_cards_input_request import RoundCardsInputRequest
from .round_dealer_decision_input_request import RoundDealerDecisionInputRequest
from .round_decisions_input_request import RoundDecisionsInputRequest
from .round_next import RoundNext
from .round_next_kind_enum import RoundNextKindEnum
from .round_replay_output import RoundReplayOutput
from .round_replay_output_dealer import RoundReplayOutputDealer
from .round_replay_output_hands_item import RoundReplayOutputHandsItem
from .round_replay_output_integrity import RoundReplayOutputIntegrity
from .round_replay_output_ledger import RoundReplayOutputLedger
from .round_replay_output_round import RoundReplayOutputRound
from .round_replay_output_shoes_item import RoundReplayOutputShoesItem
from .round_replay_output_status_enum import RoundReplayOutputStatusEnum
from .round_replay_output_steps_item import RoundReplayOutputStepsItem
from .round_resume_input_request import RoundResumeInputRequest
from .round_summary import RoundSummary
from .round_view import RoundView
from .round_void import RoundVoid
from .round_void_request_input_request import RoundVoidRequestInputRequest
from .rule_version import RuleVersion
from .rule_version_document import RuleVersionDocument
from .scopes_enum import ScopesEnum
from .seal_ref import SealRef
from .shoe_output import ShoeOutput
from .staff_token_created import StaffTokenCreated
from .staff_token_list_create_input_request import StaffTokenListCreateInputRequest
from .staff_token_output import StaffTokenOutput
from .staff_token_revoke_input_request import StaffTokenRevokeInputRequest
from .staking import Staking
from .table_accounting_output import TableAccountingOutput
from .table_clone_input_request import TableCloneInputRequest
from .table_create_input_request import TableCreateInputRequest
from .table_created import TableCreated
from .table_dealer_input_request import TableDealerInputRequest
from .table_limits_input_request import TableLimitsInputRequest
from .table_output import TableOutput
from .table_output_card_source_enum import TableOutputCardSourceEnum
from .table_output_status_enum import TableOutputStatusEnum
from .table_rules import TableRules
from .table_rules_input_request import TableRulesInputRequest
from .table_rules_output import TableRulesOutput
from .table_setup_input_request import TableSetupInputRequest
from .table_shoes_input_request import TableShoesInputRequest
from .tables_events_retrieve_format import TablesEventsRetrieveFormat
from .tables_list_status import TablesListStatus
from .timers import Timers
from .transaction_output import TransactionOutput
from .transactions_list_kind import TransactionsListKind
from .turn_view import TurnView
from .verification_status_output import VerificationStatusOutput
from .verification_status_output_last_verification_type_0 import (
    VerificationStatusOutputLastVerificationType0,
)
from .void_decision_input_request import VoidDecisionInputRequest
from .void_preview import VoidPreview
from .void_preview_line import VoidPreviewLine
from .void_request_output import VoidRequestOutput
from .void_request_state import VoidRequestState
from .void_request_status_enum import VoidRequestStatusEnum
from .waiting_for import WaitingFor
from .wallet_balance_output import WalletBalanceOutput
from .wallet_list_create_input_request import WalletListCreateInputRequest
from .wallet_output import WalletOutput

__all__ = (
    "ActionEnum",
    "AdjustmentInputRequest",
    "AmountInputRequest",
    "ApiKeyCreated",
    "ApiKeyListCreateInputRequest",
    "ApiKeyOutput",
    "ApiKeyRotated",
    "AuditDisputesListStatus",
    "AuditEventDetailOutput",
    "AuditEventOutput",
    "AuditReportsRetrieveGrouping",
    "AuditReportsRetrieveKind",
    "BetOutcome",
    "BetOutput",
    "BetState",
    "BoxState",
    "CardPostedNext",
    "CardSourceEnum",
    "CardTarget",
    "CircuitEnum",
    "CorrectionListCreateInputRequest",
    "CorrectionOutput",
    "CorrectionOutputStatusEnum",
    "CorrectionsListStatus",
    "DealerAssignmentOutput",
    "DealerState",
    "DecisionInputRequest",
    "DeliveryEnum",
    "DeviceTokenCreated",
    "DeviceTokenListCreateInputRequest",
    "DeviceTokenOutput",
    "DeviceTokenRotated",
    "DisputeInvestigateInputRequest",
    "DisputeListCreateInputRequest",
    "DisputeNoteInputRequest",
    "DisputeNoteKindEnum",
    "DisputeNoteOutput",
    "DisputeOutput",
    "DisputeOutputReplayType0",
    "DisputeOutputStatusEnum",
    "DisputeResolveInputRequest",
    "EvidenceInputRequest",
    "FundsMovedOutput",
    "GameDecisions",
    "HandState",
    "HandStateStakes",
    "Head",
    "HeadExportOutput",
    "HeadExportOutputHead",
    "HealthOutput",
    "HealthOutputBroker",
    "HealthOutputCache",
    "HealthOutputDatabase",
    "HealthOutputStatusEnum",
    "HouseAccountListOutput",
    "LegKindEnum",
    "LegOutput",
    "MeOutput",
    "ModeEnum",
    "OperatorEventOutput",
    "OperatorWebhookInputRequest",
    "OperatorWebhookOutput",
    "OutcomeEnum",
    "OutcomeLine",
    "OwnWebhook",
    "OwnWebhookInputRequest",
    "PaginatedApiKeyOutputList",
    "PaginatedAuditEventOutputList",
    "PaginatedCorrectionOutputList",
    "PaginatedDeviceTokenOutputList",
    "PaginatedDisputeOutputList",
    "PaginatedOperatorEventOutputList",
    "PaginatedPlayerOutputList",
    "PaginatedStaffTokenOutputList",
    "PaginatedTableOutputList",
    "PaginatedTransactionOutputList",
    "PaginatedWalletOutputList",
    "PhaseEnum",
    "Played",
    "PlayedEvent",
    "PlayerAction",
    "PlayerListCreateInputRequest",
    "PlayerOutput",
    "Problem",
    "ProblemErrorsItem",
    "PublicKey",
    "PublicKeysOutput",
    "ReplacementLegInputRequest",
    "ReplayDifference",
    "ReplayLine",
    "ReportOutput",
    "ReportOutputChartType0Item",
    "ReportOutputColumnsItem",
    "ReportOutputParameters",
    "ReportOutputPeriod",
    "ReportOutputRowsItem",
    "ReportOutputSignature",
    "ReportOutputTotalsItem",
    "RevokeInputRequest",
    "RotateInputRequest",
    "RoundBetsInputRequest",
    "RoundCardsInputRequest",
    "RoundDealerDecisionInputRequest",
    "RoundDecisionsInputRequest",
    "RoundNext",
    "RoundNextKindEnum",
    "RoundReplayOutput",
    "RoundReplayOutputDealer",
    "RoundReplayOutputHandsItem",
    "RoundReplayOutputIntegrity",
    "RoundReplayOutputLedger",
    "RoundReplayOutputRound",
    "RoundReplayOutputShoesItem",
    "RoundReplayOutputStatusEnum",
    "RoundReplayOutputStepsItem",
    "RoundResumeInputRequest",
    "RoundSummary",
    "RoundView",
    "RoundVoid",
    "RoundVoidRequestInputRequest",
    "RuleVersion",
    "RuleVersionDocument",
    "ScopesEnum",
    "SealRef",
    "ShoeOutput",
    "StaffTokenCreated",
    "StaffTokenListCreateInputRequest",
    "StaffTokenOutput",
    "StaffTokenRevokeInputRequest",
    "Staking",
    "TableAccountingOutput",
    "TableCloneInputRequest",
    "TableCreateInputRequest",
    "TableCreated",
    "TableDealerInputRequest",
    "TableLimitsInputRequest",
    "TableOutput",
    "TableOutputCardSourceEnum",
    "TableOutputStatusEnum",
    "TableRules",
    "TableRulesInputRequest",
    "TableRulesOutput",
    "TableSetupInputRequest",
    "TableShoesInputRequest",
    "TablesEventsRetrieveFormat",
    "TablesListStatus",
    "Timers",
    "TransactionOutput",
    "TransactionsListKind",
    "TurnView",
    "VerificationStatusOutput",
    "VerificationStatusOutputLastVerificationType0",
    "VoidDecisionInputRequest",
    "VoidPreview",
    "VoidPreviewLine",
    "VoidRequestOutput",
    "VoidRequestState",
    "VoidRequestStatusEnum",
    "WaitingFor",
    "WalletBalanceOutput",
    "WalletListCreateInputRequest",
    "WalletOutput",
)
