"""Round replay: every preset replays to the ledger's payouts; tampering with a ledger leg or a
round's recorded event is flagged naming the bet and the line; the proof of integrity."""

import pytest
from django.db import connection, transaction

from audit.models import AuditEvent
from audit.verification import audit_verification_run
from casino.actors import Actor
from casino.api import roles
from forensics.replay import round_replay
from ledger.models import Leg
from tables.engine import PRESETS
from tables.models import RoundEvent
from tests.helpers.staff import login_verified

from .helpers import seal_everything, tamper
from .rounds import payout_skim, settled_round


@pytest.mark.django_db
@pytest.mark.parametrize("preset", list(PRESETS))
def test_replay_of_every_preset_equals_the_ledger_line_by_line(preset):
    rnd = settled_round(preset)
    replay = round_replay(round_id=rnd.pk)
    assert replay["status"] == "match", replay["differences"]
    assert replay["differences"] == [] and replay["ok"]
    assert replay["round"]["rule_set"]["id"] == rnd.rule_set_id
    lines = replay["lines"]
    assert lines and all(line["match"] for line in lines)
    for line, recorded in zip(lines, rnd.settlement["lines"], strict=True):
        assert (line["bet_ref"], line["paid"]) == (recorded["bet_id"], recorded["paid"])
        assert line["ledger_payout"] == line["stake_returned"] + line["winnings"]
        assert line["ledger_bonus"] == line["bonus"]
    # the ledger's wallet legs of the round's settlement are exactly the replay's payouts
    posted = Leg.objects.filter(
        transaction_id=rnd.ledger_transaction_id, account__kind="wallet"
    ).values_list("amount", flat=True)
    assert sum(posted) == sum(line["paid"] for line in lines)
    cards = [step for step in replay["steps"] if step["type"] == "card_dealt"]
    assert [c["shoe"]["position"] for c in cards] == list(range(1, len(cards) + 1))
    assert all(c["target"] for c in cards)
    decisions = [step["decision"] for step in replay["steps"] if step["decision"]]
    assert decisions and all(d["actor"] and d["at"] for d in decisions)
    assert replay["dealer"]["cards"] and replay["hands"]
    assert replay["ledger"]["settlement_transaction_id"] == rnd.ledger_transaction_id
    assert replay["integrity"]["intact"] and replay["integrity"]["event_count"] > 0


@pytest.mark.django_db
def test_a_tampered_ledger_leg_is_flagged_naming_the_bet_and_line():
    rnd = settled_round("british_casino")  # box 1 Pontoon 2:1 pays 3000; box 2 loses
    winner = next(line for line in rnd.settlement["lines"] if line["paid"])
    payout_skim(rnd, winner["bet_id"], 500)  # a superuser moves 500 to the house's leg
    replay = round_replay(round_id=rnd.pk)
    assert replay["status"] == "differences" and not replay["ok"]
    [diff] = [d for d in replay["differences"] if d["source"] == "ledger"]
    assert diff["bet_ref"] == winner["bet_id"] and diff["field"] == "payout"
    assert (diff["replay"], diff["found"]) == (3000, 2500)
    assert diff["line"] == 0 and diff["hand"] == "box 1 hand 0"
    assert winner["bet_id"] in diff["detail"] and "line 0" in diff["detail"]
    line = replay["lines"][0]
    assert not line["match"] and line["ledger_payout"] == 2500


@pytest.mark.django_db
def test_a_tampered_round_event_is_flagged_against_the_audit_log_and_the_ledger():
    rnd = settled_round("british_casino")
    # box 2's 7C 9D = 16 loses to the dealer's 17; turn its 9D into an ace: 18 wins
    event = RoundEvent.objects.get(round=rnd, type="card_dealt", payload__card="9D")
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            "UPDATE tables_roundevent SET payload = jsonb_set(payload, '{card}', '\"AD\"') "
            "WHERE id = %s",
            [event.pk],
        )
    replay = round_replay(round_id=rnd.pk)
    kinds = {d["kind"] for d in replay["differences"]}
    assert {"event_modified", "line"} <= kinds
    modified = next(d for d in replay["differences"] if d["kind"] == "event_modified")
    assert modified["field"] == f"event {event.seq}"
    loser = next(line for line in rnd.settlement["lines"] if not line["paid"])
    named = [d for d in replay["differences"] if d["kind"] == "line"]
    assert {d["bet_ref"] for d in named} == {loser["bet_id"]}
    assert any(d["field"] == "result" and d["found"] == "lose" for d in named)
    assert any(d["source"] == "ledger" for d in named)


def test_the_replay_proves_its_events_sealed_and_verified(empty_log):
    rnd = settled_round("online_2deck")
    seal_everything()
    audit_verification_run(actor=Actor.system("tests"))
    integrity = round_replay(round_id=rnd.pk)["integrity"]
    assert integrity["intact"] and integrity["all_sealed"]
    assert integrity["covered_by_verification"]
    assert integrity["seals"] and all(s["chain_hash"] for s in integrity["seals"])
    assert all(e["sealed_digest_ok"] for e in integrity["events"])
    # a sealed audit event of the round changed by a superuser: named by the replay
    target = next(e for e in integrity["events"] if e["name"].startswith("tables.round_event"))
    tamper("UPDATE audit_auditevent SET actor_label = 'someone else' WHERE id = %s", [target["id"]])
    replay = round_replay(round_id=rnd.pk)
    assert not replay["integrity"]["intact"]
    flagged = [d for d in replay["differences"] if d["kind"] == "audit_event_modified"]
    assert [d["field"] for d in flagged] == [f"audit event {target['id']}"]


@pytest.mark.django_db
def test_replay_api_and_page_are_read_only_and_audited(client_for, client):
    rnd = settled_round("crown")
    auditor = client_for(roles.AUDITOR)
    body = auditor.get(f"/api/v1/audit/rounds/{rnd.pk}/replay/").json()
    assert body["status"] == "match" and body["lines"]
    assert client_for(roles.DEALER).get(f"/api/v1/audit/rounds/{rnd.pk}/replay/").status_code == 403
    assert auditor.get("/api/v1/audit/rounds/999999/replay/").status_code == 404
    assert auditor.post(f"/api/v1/audit/rounds/{rnd.pk}/replay/", {}).status_code in (403, 405)
    viewed = AuditEvent.objects.filter(name="audit.viewed", payload__what="replay")
    assert viewed.filter(payload__round_id=rnd.pk).count() == 1
    from tests.factories import UserFactory

    login_verified(client, UserFactory(roles=[roles.AUDITOR]))
    page = client.get(f"/admin/audit/replay/{rnd.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert "reproduces every payout" in html and "Proof of integrity" in html
    assert AuditEvent.objects.filter(name="audit.viewed", payload__what="admin.replay").exists()
    login_verified(client, UserFactory(roles=[roles.DEALER]))
    assert client.get(f"/admin/audit/replay/{rnd.pk}/").status_code == 403
