"""Table and round pages: buttons call the tables services, refusals are messages, every use is
audited, and roles decide which buttons exist."""

from decimal import Decimal

import pytest

from audit.models import AuditEvent
from casino.api import roles
from casino.money import money_text
from tables import rtp, services
from tables.engine import PRESETS
from tables.models import Round, Table, TableChange, VoidRequest
from tests.console.helpers import ACTOR, DEVICE, act, messages_of, round_with_bet, staff
from tests.factories import UserFactory, live_table
from tests.helpers.staff import login_verified

pytestmark = pytest.mark.django_db


def _action_url(model: str, pk: int, action: str) -> str:
    return f"/admin/tables/{model}/{pk}/do/{action}/"


def _audited(action: str, pk: int) -> AuditEvent:
    return AuditEvent.objects.get(
        name="admin.action", payload__action=action, payload__object_id=str(pk)
    )


def test_pit_boss_opens_pauses_resumes_and_closes_a_table_through_the_services():
    table = live_table("crown")
    services.table_close(actor=ACTOR, table_id=table.pk)
    client, _boss = staff(roles.PIT_BOSS)
    page = client.get(f"/admin/tables/table/{table.pk}/change/").content.decode()
    assert 'data-action="open"' in page and 'data-action="close"' not in page

    opened = client.post(_action_url("table", table.pk, "open"), follow=True)
    assert "is open" in " ".join(messages_of(opened))
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert _audited("open", table.pk).table_id == table.pk
    assert AuditEvent.objects.filter(name="tables.table_changed", table_id=table.pk).exists()

    ask = client.get(_action_url("table", table.pk, "pause"))
    assert ask.status_code == 200 and b"reason" in ask.content
    no_reason = client.post(_action_url("table", table.pk, "pause"), {"_action_page": "1"})
    assert b"This field is required" in no_reason.content
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN

    act(client, _action_url("table", table.pk, "pause"), reason="dealer break")
    table.refresh_from_db()
    assert table.status == Table.Status.PAUSED
    assert _audited("pause", table.pk).payload["reason"] == "dealer break"
    client.post(_action_url("table", table.pk, "resume"))
    act(client, _action_url("table", table.pk, "close"), reason="end of shift")
    table.refresh_from_db()
    assert table.status == Table.Status.CLOSED
    history = client.get(f"/admin/tables/table/{table.pk}/history/").content.decode()
    assert "end of shift" in history


def test_a_refused_action_is_an_error_message_not_a_500():
    table, _rnd, _ = round_with_bet()
    client, _ = staff(roles.PIT_BOSS)
    response = act(client, _action_url("table", table.pk, "close"), reason="closing")
    assert response.status_code == 200
    assert any("round in play" in m for m in messages_of(response))
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert not AuditEvent.objects.filter(name="admin.action", payload__action="close").exists()


def test_limits_dealer_and_new_shoe_call_their_services():
    table = live_table("crown")
    client, _ = staff(roles.FLOOR_SUPERVISOR)
    form = client.get(_action_url("table", table.pk, "limits")).content.decode()
    assert f'value="{table.min_bet}"' in form
    bad = client.post(
        _action_url("table", table.pk, "limits"),
        {
            "_action_page": "1",
            "min_bet": 500,
            "max_bet": 100,
            "min_unit": 1,
            "decision_seconds": 20,
            "betting_seconds": 30,
        },
        follow=True,
    )
    assert any("min_bet" in m for m in messages_of(bad))
    client.post(
        _action_url("table", table.pk, "limits"),
        {
            "_action_page": "1",
            "min_bet": 500,
            "max_bet": 50_000,
            "min_unit": 1,
            "decision_seconds": 20,
            "betting_seconds": 30,
            "reason": "high rollers",
        },
    )
    table.refresh_from_db()
    assert (table.min_bet, table.max_bet) == (500, 50_000)
    assert TableChange.objects.filter(table=table, kind="limits").exists()

    dealer = UserFactory(roles=[roles.DEALER])
    client.post(
        _action_url("table", table.pk, "dealer"), {"_action_page": "1", "dealer": dealer.pk}
    )
    table.refresh_from_db()
    assert table.dealer == dealer
    assert _audited("dealer", table.pk)

    old = table.shoes.get(retired_at__isnull=True)
    client.post(
        _action_url("table", table.pk, "shoe"),
        {"_action_page": "1", "shuffle_method": "shuffler", "device_id": "sh-2"},
    )
    assert table.shoes.get(retired_at__isnull=True).pk != old.pk


def test_changing_rules_shows_the_pairs_theoretical_rtp_before_activating_it():
    table = live_table("crown")
    rule_set, payouts = services.preset_versions_ensure(actor=ACTOR, preset="british_casino")
    client, _ = staff(roles.PIT_BOSS)
    url = _action_url("table", table.pk, "rules")
    preview = client.post(
        url,
        {
            "_action_page": "1",
            "_preview": "1",
            "rule_set": rule_set.pk,
            "payout_schedule": payouts.pk,
        },
    ).content.decode()
    assert "Theoretical RTP" in preview and str(rule_set) in preview
    table.refresh_from_db()
    assert table.rule_set_id != rule_set.pk, "a preview changes nothing"
    act(client, url, rule_set=rule_set.pk, payout_schedule=payouts.pk)
    table.refresh_from_db()
    assert (table.rule_set_id, table.payout_schedule_id) == (rule_set.pk, payouts.pk)


def test_the_rtp_preview_of_a_fixed_prize_schedule_is_a_table_by_stake():
    table = live_table("british_casino")
    rule_set, payouts = services.preset_versions_ensure(actor=ACTOR, preset="crown")
    client, _ = staff(roles.PIT_BOSS)
    preview = client.post(
        _action_url("table", table.pk, "rules"),
        {
            "_action_page": "1",
            "_preview": "1",
            "rule_set": rule_set.pk,
            "payout_schedule": payouts.pk,
        },
    ).content.decode()
    assert "RTP by stake" in preview and "Envy bonus" in preview
    # one point per stake: below the lowest tier, each tier's lowest and highest stake, each
    # with the shipped game-maths figure (tables/rtp_presets.json)
    crown = PRESETS["crown"]
    rows = rtp.rtp_by_stake_precomputed(rules=crown.rules, payouts=crown.payouts)["rows"]
    points = {
        ("below 5.00" if r["stake"] is None else f"{r['stake'] / 100:,.2f}"): r["rtp"] for r in rows
    }
    assert {"below 5.00", "5.00", "24.99", "25.00"} <= points.keys()
    for label, figure in points.items():
        assert f"{label}: {Decimal(figure) * 100:.4f} %" in preview
    # the prize is worth something where it changes play: above the no-prize figure there
    assert Decimal(points["5.00"]) > Decimal(points["below 5.00"])


def test_void_requested_by_a_pit_boss_is_approved_only_by_someone_else():
    _table, rnd, _player = round_with_bet(close=False)
    boss_client, boss = staff(roles.PIT_BOSS)
    page = boss_client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert 'data-action="void-request"' in page and 'data-action="void-approve"' not in page
    assert "Open a dispute case" in page and "Round replay" in page
    act(boss_client, _action_url("round", rnd.pk, "void-request"), reason="misdeal")
    request = VoidRequest.objects.get(round=rnd)
    assert request.requested_by == boss and request.reason == "misdeal"
    assert _audited("void-request", rnd.pk).round_id == rnd.pk

    # the pit boss has no approve permission at all
    assert boss_client.post(_action_url("round", rnd.pk, "void-approve")).status_code == 403
    # someone holding both roles still can't approve their own request (four eyes)
    both = UserFactory(roles=[roles.PIT_BOSS, roles.FLOOR_SUPERVISOR])
    from django.test import Client

    both_client = Client()
    login_verified(both_client, both)
    rnd2 = round_with_bet(close=True)[1]
    act(both_client, _action_url("round", rnd2.pk, "void-request"), reason="wrong card")
    own = act(both_client, _action_url("round", rnd2.pk, "void-approve"), reason="ok")
    assert any("another staff member" in m for m in messages_of(own))
    assert Round.objects.get(pk=rnd2.pk).phase != Round.Phase.VOIDED

    super_client, _supervisor = staff(roles.FLOOR_SUPERVISOR)

    approved = act(super_client, _action_url("round", rnd.pk, "void-approve"), reason="seen")
    assert any("voided" in m for m in messages_of(approved))
    rnd.refresh_from_db()
    assert rnd.phase == Round.Phase.VOIDED
    assert AuditEvent.objects.filter(name="tables.round_voided", round_id=rnd.pk).exists()


def test_a_dealer_has_no_void_button_and_is_refused():
    table, rnd, _ = round_with_bet()
    client, dealer = staff(roles.DEALER)
    page = client.get(f"/admin/tables/round/{rnd.pk}/change/").content.decode()
    assert 'data-action="close-betting"' in page
    assert "void" not in page.lower().split('id="round-panel"')[0].split("object-tools")[-1]
    assert client.get(_action_url("round", rnd.pk, "void-request")).status_code == 403
    refused = client.post(
        _action_url("round", rnd.pk, "void-request"),
        {"_action_page": "1", "reason": "x", "confirm": "on"},
    )
    assert refused.status_code == 403
    assert not VoidRequest.objects.filter(round=rnd).exists()
    # a dealer closes betting (the same service the dealer device calls) at their own table:
    # at another dealer's table the console refuses it
    elsewhere = client.post(_action_url("round", rnd.pk, "close-betting"), follow=True)
    assert any("not the dealer of record" in m for m in messages_of(elsewhere))
    rnd.refresh_from_db()
    assert rnd.phase == Round.Phase.OPEN
    Table.objects.filter(pk=table.pk).update(dealer=dealer)
    client.post(_action_url("round", rnd.pk, "close-betting"))
    rnd.refresh_from_db()
    assert rnd.phase != Round.Phase.OPEN


def test_a_suspended_round_is_an_alert_on_the_floor_and_the_pit_resumes_it():
    table, rnd, _ = round_with_bet(close=True)
    from tables.errors import RoundSuspended

    with pytest.raises(RoundSuspended):
        services.card_post(actor=DEVICE, round_id=rnd.pk, card="TH")  # no tens in crown
    client, _ = staff(roles.PIT_BOSS)
    floor = client.get("/admin/").content.decode()
    assert "suspended" in floor and table.name in floor
    data = client.get("/admin/tables/table/floor.json").json()
    row = next(t for t in data["tables"] if t["id"] == table.pk)
    assert row["alerts"] and "suspended" in row["alerts"][0]["text"]
    act(client, _action_url("round", rnd.pk, "resume"), reason="rescanned the card")
    rnd.refresh_from_db()
    assert rnd.suspended_reason == ""
    assert AuditEvent.objects.filter(name="tables.round_resumed", round_id=rnd.pk).exists()


def test_floor_dashboard_lists_every_table_and_refreshes_from_its_fragment():
    live_table("crown", name="Crown one")
    live_table("traditional", name="Trad two")
    client, _ = staff(roles.PIT_BOSS)
    index = client.get("/admin/").content.decode()
    assert "Crown one" in index and "Trad two" in index
    assert 'data-refresh-url="/admin/tables/table/floor/fragment/"' in index
    fragment = client.get("/admin/tables/table/floor/fragment/").content.decode()
    assert "Crown one" in fragment and "<html" not in fragment
    assert client.get("/admin/tables/table/floor/").status_code == 200


def test_stuck_settlement_and_a_failed_verification_are_alerts():
    from datetime import timedelta

    from django.utils import timezone

    from audit import events as audit_events

    _, rnd, _ = round_with_bet()
    Round.objects.filter(pk=rnd.pk).update(
        phase="settling", settling_since=timezone.now() - timedelta(minutes=5)
    )
    audit_events.verification_recorded(actor=ACTOR, report={"ok": False, "problem": "modified"})
    client, _ = staff(roles.PIT_BOSS)
    index = client.get("/admin/").content.decode()
    assert "stuck in settling" in index
    assert "verification FAILED" in index


def test_a_new_rule_set_version_is_validated_by_the_engine():
    rule_set, _ = services.preset_versions_ensure(actor=ACTOR, preset="crown")
    client, _ = staff(roles.FLOOR_SUPERVISOR)
    page = client.get(f"/admin/tables/rulesetversion/{rule_set.pk}/change/").content.decode()
    assert 'data-action="new-version"' in page and 'name="_save"' not in page
    url = f"/admin/tables/rulesetversion/{rule_set.pk}/do/new-version/"
    form = client.get(url).content.decode()
    assert "&quot;decks&quot;" in form or '"decks"' in form
    import json

    broken = client.post(url, {"_action_page": "1", "name": "crown", "document": "{not json"})
    assert b"Not valid JSON" in broken.content
    for bad in (dict(rule_set.document, decks=0), dict(rule_set.document, decks=10)):
        refused = client.post(
            url, {"_action_page": "1", "name": "crown", "document": json.dumps(bad)}
        )
        assert b"The engine refuses it" in refused.content
    assert b"4 to 8 spanish decks" in refused.content  # crown's range, rule book 3.1
    good = dict(rule_set.document, decks=rule_set.document["decks"] - 2)
    created = client.post(url, {"_action_page": "1", "name": "crown", "document": json.dumps(good)})
    assert created.status_code == 302
    new = type(rule_set).objects.get(name="crown", version=rule_set.version + 1)
    assert new.document["decks"] == good["decks"]
    assert created["Location"].endswith(f"/rulesetversion/{new.pk}/change/")
    # a pit boss may not create versions
    boss, _ = staff(roles.PIT_BOSS)
    assert boss.get(url).status_code == 403


def test_pit_boss_pauses_several_tables_at_once_with_one_reason():
    first, second = live_table("crown"), live_table("traditional")
    client, _ = staff(roles.PIT_BOSS)
    url = "/admin/tables/table/"
    picked = {"action": "pause_selected", "_selected_action": [first.pk, second.pk]}
    ask = client.post(url, picked)
    assert ask.status_code == 200 and b"reason" in ask.content
    client.post(url, {**picked, "_reason_page": "1", "reason": "fire drill", "confirm": "on"})
    assert set(
        Table.objects.filter(pk__in=[first.pk, second.pk]).values_list("status", flat=True)
    ) == {"paused"}
    assert AuditEvent.objects.filter(name="admin.action", payload__reason="fire drill").count() == 2
    # the dealer's console has no such action
    dealer_client, _ = staff(roles.DEALER)
    page = dealer_client.get(url).content.decode()
    assert "pause_selected" not in page


def test_the_round_panel_shows_each_bets_payout_from_the_settlement_record():
    from ledger.models import Leg
    from tests.console.helpers import play_to_settlement
    from tests.factories import funded_player

    table = live_table("british_casino", card_source="server_shoe")
    rnd = play_to_settlement(table, funded_player(50_000), stake=1000)
    (bet,) = rnd.bets.all()
    line_paid = sum(line["paid"] for line in rnd.settlement["lines"])
    legs_paid = sum(
        Leg.objects.filter(bet_ref=bet.ref, kind__in=["payout", "bonus"]).values_list(
            "amount", flat=True
        )
    )
    assert line_paid == legs_paid
    client, _ = staff(roles.PIT_BOSS)
    panel = client.get(f"/admin/tables/round/{rnd.pk}/panel/").content.decode()
    results = ",".join(line["result"] for line in rnd.settlement["lines"])
    assert f"<td>{bet.ref}</td>" in panel
    stake, paid = (money_text(v, rnd.currency) for v in (bet.staked_total, line_paid))
    assert f"<td>{stake}</td><td>{paid}</td><td>{results}</td>" in panel  # money by currency
