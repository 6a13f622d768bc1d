"""Every change to tables and rounds, in one place.

Each service runs in one database transaction that takes its row locks first (order:
``tables/lock_objects.py``), asks the engine whether the move is legal, then writes the
engine event (``RoundEvent``), the cached state, the projections, the stake debit (ledger) and
the audit event together. A refused move raises a ``DomainError`` before anything is written.

Round phases (django-fsm on ``Round.phase``) follow the engine's phases: see
``RoundDriver._phase_sync``. Timers (betting deadline, decision windows) are Celery ETA tasks
sent after commit and guarded by the round's state, plus a periodic sweep (``timers_sweep``)
for lost or early messages.

Modules: ``versions`` (rule sets, payout schedules, RTP), ``table_admin``, ``shoes``,
``driver`` (``RoundDriver``), ``play`` (rounds, cards, decisions), ``bets``, ``settlement``,
``voids`` (request, hold, approve, reject, cancel, expire), ``timers`` (timers and sweeps);
``_common`` holds their shared helpers.
"""

from tables.services.bets import bet_place, late_bet_record
from tables.services.driver import WINDOW_RESPONSES, RoundDriver
from tables.services.play import (
    CardPosted,
    Played,
    card_post,
    dealer_decision_make,
    decision_make,
    round_close_betting,
    round_open,
    round_resume,
)
from tables.services.rotation import dealer_break_end, dealer_break_start
from tables.services.settlement import round_settle
from tables.services.shoes import shoe_load, shoe_replace
from tables.services.table_admin import (
    dealing_check,
    seat_leave,
    table_clone,
    table_close,
    table_create,
    table_dealer_assign,
    table_dealer_release,
    table_limits_set,
    table_open,
    table_pause,
    table_resume,
    table_retire,
    table_rules_set,
    table_setup_set,
)
from tables.services.timers import (
    SETTLEMENT_SWEEP_GRACE,
    round_betting_close_due,
    round_timeout_apply,
    settlement_sweep,
    timers_sweep,
)
from tables.services.versions import (
    payout_schedule_version_create,
    preset_versions_ensure,
    rtp_compute_store,
    rtp_figure,
    rtp_figures_ensure,
    rule_set_version_create,
)
from tables.services.voids import (
    void_approve,
    void_cancel,
    void_reject,
    void_request,
    void_request_expire,
)

__all__ = [
    "SETTLEMENT_SWEEP_GRACE",
    "WINDOW_RESPONSES",
    "CardPosted",
    "Played",
    "RoundDriver",
    "bet_place",
    "card_post",
    "dealer_break_end",
    "dealer_break_start",
    "dealer_decision_make",
    "dealing_check",
    "decision_make",
    "late_bet_record",
    "payout_schedule_version_create",
    "preset_versions_ensure",
    "round_betting_close_due",
    "round_close_betting",
    "round_open",
    "round_resume",
    "round_settle",
    "round_timeout_apply",
    "rtp_compute_store",
    "rtp_figure",
    "rtp_figures_ensure",
    "rule_set_version_create",
    "seat_leave",
    "settlement_sweep",
    "shoe_load",
    "shoe_replace",
    "table_clone",
    "table_close",
    "table_create",
    "table_dealer_assign",
    "table_dealer_release",
    "table_limits_set",
    "table_open",
    "table_pause",
    "table_resume",
    "table_retire",
    "table_rules_set",
    "table_setup_set",
    "timers_sweep",
    "void_approve",
    "void_cancel",
    "void_reject",
    "void_request",
    "void_request_expire",
]
