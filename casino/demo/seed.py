"""A demo casino: staff per role, an operator with an API key, players with funded wallets.

Re-running is safe: existing rows are reused. The operator's API key is new on every run (a
secret is shown only when it is issued) and earlier demo keys are revoked.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from django.contrib.auth.models import Group, User
from django.db import transaction
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.actors import Actor
from casino.api import roles
from casino.api.models import ApiKey, DeviceToken
from casino.api.services import (
    api_key_issue,
    api_key_revoke,
    device_token_issue,
    device_token_revoke,
)
from casino.errors import DomainError
from casino.staff.mfa import TOTP_NAME, backup_codes_issue, totp_device_of, totp_secret
from ledger.models import Operator, Player
from ledger.services import wallet_deposit, wallet_open
from tables import services as table_services
from tables.engine import PRESETS
from tables.models import Casino, Table

ACTOR = Actor.system("demo.seed")
STAFF = {
    "pitboss": roles.PIT_BOSS,
    "floor": roles.FLOOR_SUPERVISOR,
    "dealer": roles.DEALER,
    "auditor": roles.AUDITOR,
}
PASSWORD_SUFFIX = "-demo-2026"  # noqa: S105 -- demo-only logins, printed by `make demo`
PLAYERS = [
    ("alice", "Alice Archer"),
    ("bob", "Bob Baker"),
    ("carol", "Carol Cole"),
    ("dave", "Dave Dunn"),
]
CURRENCY = "EUR"
# Every demo wallet is topped up to this (minor units) on each start.
FUNDING = 1_000_000
# Short timers so a visitor sees rounds move; the rule book's defaults apply when they run out.
TABLE_TIMERS = {"betting_seconds": 8, "decision_seconds": 6}


@dataclass
class DemoMfa:
    """A demo login's second factor, as `make demo` prints it."""

    secret: str  # base32, for an authenticator app
    otpauth_uri: str
    backup_codes: list[str]


@dataclass
class DemoCredentials:
    staff: dict[str, str] = field(default_factory=dict)  # username -> password
    mfa: dict[str, DemoMfa] = field(default_factory=dict)  # username -> second factor
    api_key: str = ""
    operator_code: str = ""
    player_ids: list[int] = field(default_factory=list)
    device_tokens: dict[int, str] = field(default_factory=dict)  # table id -> raw token
    # Tables where a box joins with no stake and stakes after its first card (traditional).
    stake_after_first_card: set[int] = field(default_factory=set)


@transaction.atomic
def demo_seed() -> DemoCredentials:
    credentials = DemoCredentials()
    admin, created = User.objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        admin.set_password("admin" + PASSWORD_SUFFIX)
        admin.save()
    credentials.staff["admin"] = "admin" + PASSWORD_SUFFIX
    credentials.mfa["admin"] = demo_mfa_enrol(admin)
    for username, role in STAFF.items():
        user, created = User.objects.get_or_create(username=username, defaults={"is_staff": True})
        if created:
            user.set_password(username + PASSWORD_SUFFIX)
            user.save()
        user.groups.add(Group.objects.get(name=role))
        credentials.staff[username] = username + PASSWORD_SUFFIX
        credentials.mfa[username] = demo_mfa_enrol(user)

    operator, _ = Operator.objects.get_or_create(code="demo-op", defaults={"name": "Demo Operator"})
    for key in ApiKey.objects.filter(operator=operator, revoked_at__isnull=True):
        api_key_revoke(actor=ACTOR, api_key=key, reason="demo restarted: new key issued")
    _, raw = api_key_issue(actor=ACTOR, operator=operator, label="demo integration")
    credentials.api_key = raw
    credentials.operator_code = operator.code

    for ref, name in PLAYERS:
        player, _ = Player.objects.get_or_create(
            operator=operator, external_ref=ref, defaults={"display_name": name}
        )
        wallet, _ = wallet_open(actor=ACTOR, player=player, currency=CURRENCY)
        if wallet.balance < FUNDING:
            wallet_deposit(actor=ACTOR, wallet=wallet, amount=FUNDING - wallet.balance)
        credentials.player_ids.append(player.pk)

    dealer = User.objects.get(username="dealer")
    players = list(Player.objects.filter(pk__in=credentials.player_ids))
    for table in demo_tables():
        # The simulated players take fixed boxes; free whatever an earlier run left seated.
        for player in players:
            with contextlib.suppress(DomainError):
                table_services.seat_leave(actor=ACTOR, table_id=table.pk, player=player)
        for token in DeviceToken.objects.filter(table=table, revoked_at__isnull=True):
            device_token_revoke(actor=ACTOR, token=token, reason="demo restarted: new token")
        _, raw = device_token_issue(actor=ACTOR, table=table, device_id=f"demo-{table.code}")
        credentials.device_tokens[table.pk] = raw
        if table.rule_set.document.get("staking_after_first_card"):
            credentials.stake_after_first_card.add(table.pk)
        if table.dealer_id != dealer.pk:
            table_services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=dealer)
        if table.status == Table.Status.CLOSED:
            table_services.table_open(actor=ACTOR, table_id=table.pk)
    return credentials


DEMO_BACKUP_CODES = 3


def demo_mfa_enrol(user) -> DemoMfa:
    """Every staff login needs a second factor (casino/staff): a demo user keeps one TOTP
    device across runs (an authenticator app set up once keeps working) and gets fresh
    backup codes on each run, printed with the password."""
    device = totp_device_of(user)
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=True)
    codes = backup_codes_issue(user=user, count=DEMO_BACKUP_CODES)
    return DemoMfa(secret=totp_secret(device), otpauth_uri=device.config_url, backup_codes=codes)


def demo_tables() -> list[Table]:
    """One table per preset, dealt from the server's shoe."""
    casino, _ = Casino.objects.get_or_create(code="main", defaults={"name": "Main casino"})
    tables = []
    for preset in PRESETS:
        table = Table.objects.filter(code=f"demo-{preset}").first()
        if table is None:
            rule_set, schedule = table_services.preset_versions_ensure(actor=ACTOR, preset=preset)
            table = table_services.table_create(
                actor=ACTOR,
                casino=casino,
                code=f"demo-{preset}",
                name=f"{preset.replace('_', ' ').title()} (demo)",
                rule_set=rule_set,
                payout_schedule=schedule,
                currency=CURRENCY,
                **TABLE_TIMERS,
            )
        tables.append(table)
    return tables
