"""Rule-set and payout-schedule versions, and their theoretical RTP."""

from __future__ import annotations

from django.db import transaction

from casino.actors import Actor
from casino.errors import ValidationFailed
from tables import engine as eng
from tables import events
from tables.models import PayoutScheduleVersion, RtpFigure, RuleSetVersion
from tables.rtp import rtp_by_stake_precomputed, rtp_by_stake_text, rtp_compute, rtp_precomputed
from tables.services._common import enqueue


def _version_create(*, actor: Actor, model, kind: str, name: str, document: dict, user=None):
    last = model.objects.filter(name=name).order_by("-version").first()
    version = model.objects.create(
        name=name,
        version=(last.version + 1) if last else 1,
        document=document,
        created_by=user,
    )
    events.rule_version_created(actor=actor, kind=kind, version=version)
    return version


def rule_set_version_create(
    *, actor: Actor, name: str, document: dict, user=None
) -> RuleSetVersion:
    """A new, immutable version of a rule set (editing a rule set = creating a version)."""
    try:
        rules = eng.RuleSet.from_json(document).check_operator_bounds()
    except eng.EngineError as exc:
        raise ValidationFailed(f"Rule set: {exc}") from None
    with transaction.atomic():
        return _version_create(
            actor=actor,
            model=RuleSetVersion,
            kind="rule_set",
            name=name,
            document=rules.to_json(),
            user=user,
        )


def payout_schedule_version_create(
    *, actor: Actor, name: str, document: dict, user=None
) -> PayoutScheduleVersion:
    try:
        payouts = eng.PayoutSchedule.from_json(document)
    except eng.EngineError as exc:
        raise ValidationFailed(f"Payout schedule: {exc}") from None
    with transaction.atomic():
        return _version_create(
            actor=actor,
            model=PayoutScheduleVersion,
            kind="payout_schedule",
            name=name,
            document=payouts.to_json(),
            user=user,
        )


def preset_versions_ensure(
    *, actor: Actor, preset: str
) -> tuple[RuleSetVersion, PayoutScheduleVersion]:
    """The latest versions named ``preset`` whose documents mean the engine's preset, created
    when missing (demo, tests, first set-up). Compared as read by the engine: a version stored
    before a rule-set field was added (its default filled in on reading) is still the preset's
    when the preset keeps that default, so an engine release re-versions only the presets it
    changes."""
    rules, payouts = eng.get_preset(preset)
    out = []
    for model, engine_doc, create in (
        (RuleSetVersion, rules, rule_set_version_create),
        (PayoutScheduleVersion, payouts, payout_schedule_version_create),
    ):
        last = model.objects.filter(name=preset).order_by("-version").first()
        if last is not None and type(engine_doc).from_json(last.document) == engine_doc:
            out.append(last)
        else:
            out.append(create(actor=actor, name=preset, document=engine_doc.to_json()))
    return out[0], out[1]


def rtp_figure(*, rule_set: RuleSetVersion, payout_schedule: PayoutScheduleVersion) -> RtpFigure:
    """The theoretical RTP of a pair as stored; when missing, its computation is queued (the
    game maths takes seconds) and the figure reads "pending"."""
    figure, _ = RtpFigure.objects.get_or_create(
        rule_set=rule_set,
        payout_schedule=payout_schedule,
        defaults={"method": "pending: the game maths is computing"},
    )
    if figure.rtp is None:
        enqueue("tables.rtp_compute", [rule_set.pk, payout_schedule.pk])
    return figure


def rtp_by_stake(*, rule_set: RuleSetVersion, payout_schedule: PayoutScheduleVersion) -> str | None:
    """The RTP by stake tier of a pair whose schedule has fixed Super Bonus prizes (their
    value, and so the strategy, depends on the stake): shipped for the presets; None for a
    schedule without fixed prizes, or one whose table is not precomputed."""
    payouts = eng.PayoutSchedule.from_json(payout_schedule.document)
    if not payouts.super_bonus_tiers:
        return None
    table = rtp_by_stake_precomputed(
        rules=eng.RuleSet.from_json(rule_set.document), payouts=payouts
    )
    if table is None:
        return (
            "not precomputed for this pair (python manage.py gamemath --stake AMOUNT gives it); "
            "the figure above leaves the fixed prizes out"
        )
    return rtp_by_stake_text(table, payouts)


def rtp_compute_store(*, rule_set_id: int, payout_schedule_id: int) -> RtpFigure:
    """Compute a pair's theoretical RTP with the engine's game maths and store it."""
    rule_set = RuleSetVersion.objects.get(pk=rule_set_id)
    payout_schedule = PayoutScheduleVersion.objects.get(pk=payout_schedule_id)
    rtp, method = rtp_compute(
        rules=eng.RuleSet.from_json(rule_set.document),
        payouts=eng.PayoutSchedule.from_json(payout_schedule.document),
    )
    figure, _ = RtpFigure.objects.update_or_create(
        rule_set=rule_set, payout_schedule=payout_schedule, defaults={"rtp": rtp, "method": method}
    )
    return figure


def rtp_figures_ensure(*, pairs) -> dict[tuple[int, int], RtpFigure]:
    """The stored figure of every (rule set id, payout schedule id) pair, for the reports: a
    pair without a figure gets the shipped preset figure stored now (instant), or has its
    game maths queued (``rtp_figure``: "pending" until the worker stores it)."""
    pairs = set(pairs)
    figures = {
        (f.rule_set_id, f.payout_schedule_id): f
        for f in RtpFigure.objects.filter(rule_set_id__in={rs for rs, _ in pairs})
        if (f.rule_set_id, f.payout_schedule_id) in pairs
    }
    for rs, ps in sorted(pairs):
        figure = figures.get((rs, ps))
        if figure is not None and figure.rtp is not None:
            continue
        rule_set = RuleSetVersion.objects.get(pk=rs)
        payout_schedule = PayoutScheduleVersion.objects.get(pk=ps)
        known = rtp_precomputed(
            rules=eng.RuleSet.from_json(rule_set.document),
            payouts=eng.PayoutSchedule.from_json(payout_schedule.document),
        )
        if known is not None:
            figures[(rs, ps)], _ = RtpFigure.objects.update_or_create(
                rule_set=rule_set,
                payout_schedule=payout_schedule,
                defaults={"rtp": known[0], "method": known[1]},
            )
        else:
            figures[(rs, ps)] = rtp_figure(rule_set=rule_set, payout_schedule=payout_schedule)
    return figures
