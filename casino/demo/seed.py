"""A demo casino: staff per role, an operator with an API key, players with funded wallets.

Re-running is safe: existing rows are reused. The operator's API key is new on every run (a
secret is shown only when it is issued) and earlier demo keys are revoked.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib.auth.models import Group, User
from django.db import transaction

from casino.actors import Actor
from casino.api import roles
from casino.api.models import ApiKey
from casino.api.services import api_key_issue, api_key_revoke
from ledger.models import Operator, Player

ACTOR = Actor.system("demo.seed")
STAFF = {
    "pitboss": roles.PIT_BOSS,
    "floor": roles.FLOOR_SUPERVISOR,
    "dealer": roles.DEALER,
    "auditor": roles.AUDITOR,
}
PASSWORD_SUFFIX = "-demo-2026"  # noqa: S105 -- demo-only logins, printed by `make demo`
PLAYERS = [("alice", "Alice Archer"), ("bob", "Bob Baker"), ("carol", "Carol Cole")]


@dataclass
class DemoCredentials:
    staff: dict[str, str] = field(default_factory=dict)  # username -> password
    api_key: str = ""
    operator_code: str = ""


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
    for username, role in STAFF.items():
        user, created = User.objects.get_or_create(username=username, defaults={"is_staff": True})
        if created:
            user.set_password(username + PASSWORD_SUFFIX)
            user.save()
        user.groups.add(Group.objects.get(name=role))
        credentials.staff[username] = username + PASSWORD_SUFFIX

    operator, _ = Operator.objects.get_or_create(code="demo-op", defaults={"name": "Demo Operator"})
    for key in ApiKey.objects.filter(operator=operator, revoked_at__isnull=True):
        api_key_revoke(actor=ACTOR, api_key=key, reason="demo restarted: new key issued")
    _, raw = api_key_issue(actor=ACTOR, operator=operator, label="demo integration")
    credentials.api_key = raw
    credentials.operator_code = operator.code

    for ref, name in PLAYERS:
        Player.objects.get_or_create(
            operator=operator, external_ref=ref, defaults={"display_name": name}
        )
    return credentials
