"""Roles are Django groups with permissions; this module is the single list of both.

Staff users belong to groups. API keys act with the ``operator_integration`` role and dealer
devices with the ``dealer_device`` role, resolved from the same groups, so one permission check
(``casino.api.permissions.RolePermission``) serves every kind of principal.
"""

from django.contrib.auth.models import Group, Permission
from django.core.cache import caches

PIT_BOSS = "pit_boss"
FLOOR_SUPERVISOR = "floor_supervisor"
DEALER = "dealer"
AUDITOR = "auditor"
OPERATOR_INTEGRATION = "operator_integration"
DEALER_DEVICE = "dealer_device"
# An operator's own staff in the pit console: their operator's players, wallets and money only
# (linked to the operator by casino.console.models.OperatorStaff; no link, nothing shown).
OPERATOR_STAFF = "operator_staff"

_VIEW_ALL = [
    "ledger.view_operator",
    "ledger.view_player",
    "ledger.view_account",
    "ledger.view_transaction",
    "ledger.view_accounting",
    "ledger.view_correction",
    "ledger.view_operatorevent",
    "ledger.view_webhookattempt",
    "ledger.view_webhookcircuit",
    "tables.view_casino",
    "tables.view_pit",
    "tables.view_table",
    "tables.view_round",
    "tables.view_rulesetversion",
    "tables.view_payoutscheduleversion",
    "tables.view_rtpfigure",
    "tables.view_tablechange",
    "tables.view_dealerassignment",
    "tables.view_seat",
    "tables.view_shoe",
    "tables.view_shuffle",
    "tables.view_roundevent",
    "tables.view_bet",
    "tables.view_hand",
    "tables.view_decision",
    "tables.view_voidrequest",
    "tables.view_shiftplan",
    "tables.view_shiftdefinition",
    "tables.view_rosterentry",
    "tables.view_dealerbreak",
    "audit.view_auditevent",
    "audit.view_report",
    "audit.view_disputecase",
    "api.view_apikey",
    "api.view_devicetoken",
    "console.view_operatorstaff",
]

ROLE_PERMISSIONS: dict[str, list[str]] = {
    PIT_BOSS: [
        *_VIEW_ALL,
        "tables.change_table",
        "tables.operate_table",
        "tables.request_void",
        "tables.cancel_void",
        "tables.add_rosterentry",
        "tables.change_rosterentry",
        "tables.delete_rosterentry",
        "api.add_devicetoken",
        "api.change_devicetoken",
        "ledger.add_correction",
        "audit.add_disputecase",
        "audit.work_dispute",
        "api.own_stafftoken",
    ],
    FLOOR_SUPERVISOR: [
        *_VIEW_ALL,
        "tables.change_table",
        "tables.operate_table",
        "tables.approve_void",
        "tables.reject_void",
        "ledger.add_operator",
        "ledger.change_operator",
        "ledger.redeliver_operatorevent",
        "ledger.add_correction",
        "ledger.approve_correction",
        "tables.add_rulesetversion",
        "tables.add_payoutscheduleversion",
        "tables.add_shiftplan",
        "tables.change_shiftplan",
        "tables.add_shiftdefinition",
        "tables.change_shiftdefinition",
        "tables.delete_shiftdefinition",
        "tables.add_rosterentry",
        "tables.change_rosterentry",
        "tables.delete_rosterentry",
        "console.add_operatorstaff",
        "console.change_operatorstaff",
        "console.delete_operatorstaff",
        "api.add_apikey",
        "api.change_apikey",
        "api.add_devicetoken",
        "api.change_devicetoken",
        "audit.add_disputecase",
        "audit.work_dispute",
        "audit.resolve_dispute",
        "api.own_stafftoken",
    ],
    DEALER: ["tables.view_table", "tables.view_round", "tables.deal_round", "api.own_stafftoken"],
    OPERATOR_STAFF: [
        "ledger.view_player",
        "ledger.view_account",
        "ledger.view_transaction",
        "ledger.view_operatorevent",
        "api.own_stafftoken",
    ],
    # The auditor sees everything, staff accounts and roles included, and changes nothing
    # (not even a personal API token of its own: it works from the console).
    AUDITOR: [*_VIEW_ALL, "auth.view_user", "auth.view_group"],
    OPERATOR_INTEGRATION: [
        "ledger.view_player",
        "ledger.add_player",
        "ledger.view_account",
        "ledger.add_account",
        "ledger.move_funds",
        "ledger.view_transaction",
        "ledger.view_accounting",
        "ledger.view_operatorevent",
        "ledger.manage_own_webhook",
        "ledger.redeliver_operatorevent",
        "tables.view_table",
        "tables.place_bet",
        "tables.play_round",
    ],
    DEALER_DEVICE: ["tables.view_table", "tables.deal_round"],
}

_CACHE_KEY = "role-perms:{}"


def role_permissions(role: str) -> frozenset[str]:
    """The permissions of a role as stored in the database (cached per process briefly)."""
    key = _CACHE_KEY.format(role)
    perms = caches["process"].get(key)
    if perms is None:
        rows = Permission.objects.filter(group__name=role).values_list(
            "content_type__app_label", "codename"
        )
        perms = frozenset(f"{app}.{codename}" for app, codename in rows)
        caches["process"].set(key, perms, 30)
    return perms


def roles_sync() -> None:
    """Create every role group and give it exactly the permissions listed above."""
    for role, perm_names in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=role)
        wanted = []
        for name in perm_names:
            app_label, codename = name.split(".", 1)
            wanted.append(
                Permission.objects.get(content_type__app_label=app_label, codename=codename)
            )
        group.permissions.set(wanted)
        caches["process"].delete(_CACHE_KEY.format(role))


def roles_sync_after_migrate(sender, **kwargs) -> None:
    # post_migrate runs per app; make sure every app's permissions exist before assigning them.
    from django.apps import apps
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        create_permissions(app_config, verbosity=0, using=kwargs.get("using", "default"))
    roles_sync()
