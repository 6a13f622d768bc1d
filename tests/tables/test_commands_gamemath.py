"""The gamemath / simulate management commands (JSON output, presets and rule files)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tables.engine import get_preset


def _run(*args) -> dict:
    out = StringIO()
    call_command(*args, stdout=out)
    return json.loads(out.getvalue())


def test_gamemath_json_has_the_figures_and_the_strategy():
    d = _run("gamemath", "--variant", "online_2deck", "--json")
    assert d["variant"] == "online_2deck"
    assert isinstance(d["house_edge"], float)
    assert "finite-shoe" in d["method"]
    assert d["strategy"]["none"]["A,T"] == "stand"


def test_gamemath_dealer_json_keys():
    d = _run("gamemath", "--variant", "crown", "--dealer", "--json")["dealer"]
    assert {"17", "18", "19", "20", "21", "pontoon", "bust"} <= set(d)
    assert "five_card" not in d
    assert d["pontoon"] == pytest.approx(16 / 383)
    d = _run("gamemath", "--variant", "online_8deck", "--dealer", "--json")["dealer"]
    assert "five_card" in d
    assert sum(d.values()) == pytest.approx(1.0)


def test_simulate_json(tmp_path):
    d = _run(
        "simulate",
        "--variant",
        "traditional",
        "--hands",
        "20000",
        "--seed",
        "3",
        "--workers",
        "1",
        "--json",
    )
    for key in ("variant", "hands", "house_edge", "standard_error", "hands_per_second"):
        assert key in d
    assert d["hands"] == 20000
    assert abs(d["z"]) < 5


def test_custom_rules_file(tmp_path):
    rules, payouts = get_preset("online_2deck")
    path = tmp_path / "game.json"
    path.write_text(
        json.dumps(
            {
                "rules": rules.replace(name="two_deck_3to2", decks=4).to_json(),
                "payouts": payouts.replace(five_card_trick=(3, 2)).to_json(),
            }
        )
    )
    d = _run("gamemath", "--rules", str(path), "--json")
    assert d["variant"] == "two_deck_3to2"
    base = _run("gamemath", "--variant", "online_2deck", "--json")
    assert d["house_edge"] != base["house_edge"]
    s = _run("simulate", "--rules", str(path), "--hands", "5000", "--workers", "1", "--json")
    assert s["variant"] == "two_deck_3to2"


def test_bad_input_is_a_command_error(tmp_path):
    with pytest.raises(CommandError):
        call_command("gamemath", "--json")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"rules": {"decks": 0}}))
    with pytest.raises(CommandError):
        call_command("gamemath", "--rules", str(bad), "--json")


def test_gamemath_at_a_stake_values_the_prize_there():
    """``--stake 5.00`` on crown: the 1,000.00 prize is 200:1, 7-7 against a 7 is hit, and the
    RTP is the shipped figure for that stake (the pit console's table by stake)."""
    from decimal import Decimal

    from tables import rtp

    d = _run("gamemath", "--variant", "crown", "--stake", "5.00", "--json")
    assert d["stake"] == 500
    assert d["strategy"]["7"]["7,7"] == "hit"
    sb = d["super_bonus"]
    assert sb["prize_per_unit_stake"] == 200.0 and sb["in_house_edge"]
    rules, payouts = get_preset("crown")
    rows = rtp.rtp_by_stake_precomputed(rules=rules, payouts=payouts)["rows"]
    shipped = {row["stake"]: Decimal(row["rtp"]) for row in rows}
    assert Decimal(1 + d["player_ev"]).quantize(Decimal("0.000001")) == shipped[500]
    assert shipped[500] > shipped[None]
