"""A demo casino: staff per role, an operator with an API key, players with funded wallets,
and two tables per preset: a fast self-playing one and one at a human pace; and the sandbox:
a test-mode operator's key and one self-dealing sandbox table per preset, in play money.

Re-running is safe: existing rows are reused. The operator's API key is new on every run (a
secret is shown only when it is issued) and earlier demo keys are revoked.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from django.contrib.auth.models import Group, User
from django.db import transaction
from django_otp.plugins.otp_totp.models import TOTPDevice

from audit.sealing import audit_chain_seal
from audit.verification import VerificationReport, audit_verification_run
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
from casino.money import PLAY_MONEY
from casino.sandbox.services import (
    SANDBOX_TIMERS,
    sandbox_key_issue,
    sandbox_operator_ensure,
    sandbox_table_ensure,
)
from casino.staff.mfa import TOTP_NAME, backup_codes_issue, totp_device_of, totp_secret
from ledger.models import Operator, Player
from ledger.services import wallet_deposit, wallet_open
from tables import services as table_services
from tables.engine import PRESETS
from tables.models import Casino, Seat, Table

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
# The human-paced tables: long enough to bet and decide by hand from the docs page or curl. No
# simulated player bets there, and their dealer device leaves closing betting to the timer.
HUMAN_TIMERS = {"betting_seconds": 90, "decision_seconds": 60}


@dataclass
class DemoCredentials:
    # One dict per staff login (username, password, role): a per-user secret is one more key.
    logins: list[dict] = field(default_factory=list)
    api_key: str = ""
    operator_code: str = ""
    player_ids: list[int] = field(default_factory=list)
    device_tokens: dict[int, str] = field(default_factory=dict)  # table id -> raw token
    # Tables where a box joins with no stake and stakes after its first card (traditional).
    stake_after_first_card: set[int] = field(default_factory=set)
    human_paced: set[int] = field(default_factory=set)  # table ids
    # The sandbox (casino/sandbox): a test-mode operator's key and its self-dealing tables.
    sandbox_operator_code: str = ""
    sandbox_api_key: str = ""
    sandbox_table_ids: list[int] = field(default_factory=list)

    @property
    def staff(self) -> dict[str, str]:
        """username -> password"""
        return {login["username"]: login["password"] for login in self.logins}

    def document(self, base: str) -> dict:
        """What the demo's credentials file holds (casino/demo/credentials.py)."""
        listed = [
            {"id": t.pk, "code": t.code, "name": t.name}
            for t in Table.objects.filter(pk__in=self.device_tokens).order_by("code")
        ]
        return {
            "urls": {
                "base": base,
                "admin": f"{base}/admin/",
                "login": f"{base}/admin/login/",
                "api": f"{base}/api/v1/",
                "docs": f"{base}/api/v1/docs/",
                "schema": f"{base}/api/v1/schema/",
                "health": f"{base}/api/v1/health/",
                "health_live": f"{base}/api/v1/health/live/",
                "health_ready": f"{base}/api/v1/health/ready/",
                "health_detail": f"{base}/api/v1/health/detail/",
                "metrics": f"{base}/api/v1/metrics/",
            },
            "logins": self.logins,
            "operator": {"code": self.operator_code, "api_key": self.api_key},
            "players": self.player_ids,
            "currency": CURRENCY,
            "tables": {
                "human_betting_seconds": HUMAN_TIMERS["betting_seconds"],
                "human_decision_seconds": HUMAN_TIMERS["decision_seconds"],
                "human_paced": [t for t in listed if t["id"] in self.human_paced],
                "self_playing": [t for t in listed if t["id"] not in self.human_paced],
            },
            "sandbox": {
                "operator_code": self.sandbox_operator_code,
                "api_key": self.sandbox_api_key,
                "currency": PLAY_MONEY,
                "betting_seconds": SANDBOX_TIMERS["betting_seconds"],
                "decision_seconds": SANDBOX_TIMERS["decision_seconds"],
                "tables": [
                    {"id": t.pk, "code": t.code, "name": t.name}
                    for t in Table.objects.filter(pk__in=self.sandbox_table_ids).order_by("code")
                ],
            },
        }


@transaction.atomic
def demo_seed() -> DemoCredentials:
    credentials = DemoCredentials()
    admin, created = User.objects.get_or_create(
        username="admin", defaults={"is_staff": True, "is_superuser": True}
    )
    if created:
        admin.set_password("admin" + PASSWORD_SUFFIX)
        admin.save()
    credentials.logins.append(
        {
            "username": "admin",
            "password": "admin" + PASSWORD_SUFFIX,
            "role": "superuser",
            **demo_mfa_enrol(admin),
        }
    )
    for username, role in STAFF.items():
        user, created = User.objects.get_or_create(username=username, defaults={"is_staff": True})
        if created:
            user.set_password(username + PASSWORD_SUFFIX)
            user.save()
        user.groups.add(Group.objects.get(name=role))
        credentials.logins.append(
            {
                "username": username,
                "password": username + PASSWORD_SUFFIX,
                "role": role,
                **demo_mfa_enrol(user),
            }
        )

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
    human = demo_tables(prefix="human", label="human pace", timers=HUMAN_TIMERS)
    credentials.human_paced = {table.pk for table in human}
    tables = demo_tables() + human
    _demo_dealers(tables, dealer)
    for table in tables:
        # Every box free at start: the simulated players take fixed boxes, and a box a person
        # took in an earlier run (the README's bet, at box 1) would refuse the next person.
        seated = Seat.objects.filter(table=table, left_at__isnull=True).select_related("player")
        for seat in seated:
            with contextlib.suppress(DomainError):
                table_services.seat_leave(actor=ACTOR, table_id=table.pk, player=seat.player)
        for token in DeviceToken.objects.filter(table=table, revoked_at__isnull=True):
            device_token_revoke(actor=ACTOR, token=token, reason="demo restarted: new token")
        _, raw = device_token_issue(actor=ACTOR, table=table, device_id=f"demo-{table.code}")
        credentials.device_tokens[table.pk] = raw
        if table.rule_set.document.get("staking_after_first_card"):
            credentials.stake_after_first_card.add(table.pk)
        if table.status == Table.Status.CLOSED:
            table_services.table_open(actor=ACTOR, table_id=table.pk)
        # The theoretical RTP of each pair (the presets' ship precomputed: the worker stores
        # them at once), so the game performance report has them from the first round.
        table_services.rtp_figure(rule_set=table.rule_set, payout_schedule=table.payout_schedule)
    demo_sandbox(credentials)
    return credentials


SANDBOX_OPERATOR = "sandbox-op"


def demo_sandbox(credentials: DemoCredentials) -> None:
    """A sandbox operator with a fresh key (earlier demo keys revoked) and one self-dealing
    sandbox table per preset (casino/sandbox): the worker's beat deals them, in play money."""
    operator = sandbox_operator_ensure(
        actor=ACTOR, code=SANDBOX_OPERATOR, name="Sandbox integrator (test mode)"
    )
    for key in ApiKey.objects.filter(operator=operator, revoked_at__isnull=True):
        api_key_revoke(actor=ACTOR, api_key=key, reason="demo restarted: new key issued")
    _, raw = sandbox_key_issue(actor=ACTOR, operator=operator, label="demo sandbox")
    credentials.sandbox_operator_code = operator.code
    credentials.sandbox_api_key = raw
    credentials.sandbox_table_ids = [
        sandbox_table_ensure(actor=ACTOR, preset=preset, code=f"sandbox-{preset}").pk
        for preset in PRESETS
    ]


def _demo_dealers(tables: list[Table], dealer: User) -> None:
    """One dealer per table (a dealer holds one table at a time): the ``dealer`` login at the
    first, a dealer without a login at each other. Those go first, relieving ``dealer``
    wherever an earlier run left them."""
    group = Group.objects.get(name=roles.DEALER)
    for table in tables[1:]:
        own, created = User.objects.get_or_create(username=f"dealer-{table.code}")
        if created:
            own.set_unusable_password()
            own.save()
        own.groups.add(group)
        if table.dealer_id != own.pk:
            table_services.table_dealer_assign(actor=ACTOR, table_id=table.pk, dealer=own)
    if tables and tables[0].dealer_id != dealer.pk:
        table_services.table_dealer_assign(actor=ACTOR, table_id=tables[0].pk, dealer=dealer)


DEMO_BACKUP_CODES = 3


def demo_mfa_enrol(user) -> dict:
    """Every staff login needs a second factor (casino/staff): a demo user keeps one TOTP
    device across runs (an authenticator app set up once keeps working) and gets fresh
    backup codes on each run; the keys join the user's login entry (printed, and in the
    credentials file)."""
    device = totp_device_of(user)
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=True)
    return {
        "totp_secret": totp_secret(device),
        "otpauth_uri": device.config_url,
        "backup_codes": backup_codes_issue(user=user, count=DEMO_BACKUP_CODES),
    }


def demo_audit_verify() -> VerificationReport:
    """Seal and verify the audit log now (after seeding, before serving), so the floor's audit
    badge is true from the first minute, not after the worker's first scheduled verification
    (AUDIT_VERIFY_EVERY_S)."""
    audit_chain_seal()
    return audit_verification_run(actor=Actor.system("demo.start"))


def demo_tables(*, prefix="demo", label="demo", timers=TABLE_TIMERS) -> list[Table]:
    """One table per preset, dealt from the server's shoe."""
    casino, _ = Casino.objects.get_or_create(code="main", defaults={"name": "Main casino"})
    tables = []
    for preset in PRESETS:
        table = Table.objects.filter(code=f"{prefix}-{preset}").first()
        if table is None:
            rule_set, schedule = table_services.preset_versions_ensure(actor=ACTOR, preset=preset)
            table = table_services.table_create(
                actor=ACTOR,
                casino=casino,
                code=f"{prefix}-{preset}",
                name=f"{preset.replace('_', ' ').title()} ({label})",
                rule_set=rule_set,
                payout_schedule=schedule,
                currency=CURRENCY,
                **timers,
            )
        tables.append(table)
    return tables
