"""The presets' theoretical RTP ships precomputed (tables/rtp_presets.json), so a demo without
the game maths extra (numba, numpy) still shows every demo table's figure."""

import json
from decimal import Decimal

import pytest

from casino.actors import Actor
from tables import rtp
from tables.engine import PRESETS, get_preset
from tables.services import preset_versions_ensure, rtp_compute_store


@pytest.mark.timeout(1200)  # every preset's exact maths, crown at four stakes
def test_the_shipped_figures_are_what_the_game_maths_computes_today():
    shipped = json.loads(rtp.PRECOMPUTED.read_text())
    assert rtp.presets_compute() == shipped, (
        "the game maths or a preset changed: regenerate with `python -m tables.rtp write`"
    )
    assert sorted(entry["preset"] for entry in shipped.values()) == sorted(PRESETS)


@pytest.mark.django_db
def test_a_preset_pair_gets_its_shipped_figure_without_the_game_maths(monkeypatch):
    def no_game_maths(**kwargs):
        raise AssertionError("the game maths ran for a preset")

    monkeypatch.setattr(rtp, "rtp_game_maths", no_game_maths)
    shipped = json.loads(rtp.PRECOMPUTED.read_text())
    rule_set, payouts = preset_versions_ensure(actor=Actor.system("test"), preset="crown")
    figure = rtp_compute_store(rule_set_id=rule_set.pk, payout_schedule_id=payouts.pk)
    digest = rtp.documents_digest(*get_preset("crown"))
    assert str(figure.rtp) == shipped[digest]["rtp"]
    assert figure.method.startswith("precomputed (rtp_presets.json)")


def test_a_rule_set_of_its_own_is_computed_by_the_game_maths():
    rules, payouts = get_preset("online_2deck")
    rules = rules.replace(decks=rules.decks + 1)
    value, method = rtp.rtp_compute(rules=rules, payouts=payouts)
    assert value is not None and method.startswith("tables.engine.gamemath")


@pytest.mark.django_db
def test_crown_shows_its_rtp_by_stake_tier_before_activation():
    """The fixed Super Bonus prize is worth 200:1 at 5.00 and 25.00 (7-7 against a 7 is hit, the
    RTP rises) and about 40:1 at 24.99 (still split: the prize never occurs, no-prize RTP)."""
    from tables.services.versions import rtp_by_stake

    rules, payouts = get_preset("crown")
    table = rtp.rtp_by_stake_precomputed(rules=rules, payouts=payouts)
    by = {row["stake"]: row for row in table["rows"]}
    assert list(by) == [None, 500, 2499, 2500]
    no_prize = rtp.rtp_precomputed(rules=rules, payouts=payouts)[0]
    assert Decimal(by[None]["rtp"]) == Decimal(by[2499]["rtp"]) == no_prize
    assert Decimal(by[500]["rtp"]) == Decimal(by[2500]["rtp"]) > no_prize
    assert by[500]["envy_per_other_box"] > 0 == by[2499]["envy_per_other_box"]
    rule_set, schedule = preset_versions_ensure(actor=Actor.system("test"), preset="crown")
    text = rtp_by_stake(rule_set=rule_set, payout_schedule=schedule)
    assert "5.00: " in text and "24.99: " in text and "25.00: " in text and "Envy bonus" in text
    other, schedule = preset_versions_ensure(actor=Actor.system("test"), preset="online_8deck")
    assert rtp_by_stake(rule_set=other, payout_schedule=schedule) is None


@pytest.mark.django_db
def test_an_engine_field_added_with_its_default_re_versions_only_the_presets_it_changes():
    """A rule-set version stored before ``pontoon_waits_for_second_card_only`` existed reads
    with it off: still crown's preset (off there), no longer british_casino's (on, §4)."""
    from tables.models import RuleSetVersion
    from tables.services.versions import rule_set_version_create

    actor = Actor.system("test")
    stored = {}
    for preset in ("crown", "british_casino"):
        document = get_preset(preset)[0].to_json()
        del document["pontoon_waits_for_second_card_only"]
        stored[preset] = rule_set_version_create(actor=actor, name=preset, document=document)
    crown, _ = preset_versions_ensure(actor=actor, preset="crown")
    british, _ = preset_versions_ensure(actor=actor, preset="british_casino")
    assert crown == stored["crown"]
    assert british != stored["british_casino"] and british.version == 2
    assert british.document["pontoon_waits_for_second_card_only"] is True
    assert RuleSetVersion.objects.count() == 3
