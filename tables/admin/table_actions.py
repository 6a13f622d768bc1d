"""The table page's buttons (``ObjectAction``s), each calling one service of
``tables.services`` as the API does, and the "Add table" page's creation."""

from __future__ import annotations

from django.urls import reverse

from casino.console.admin import ObjectAction
from casino.errors import Conflict
from casino.money import money_text
from tables import console_selectors, models, services
from tables.admin.common import DEAL, OPERATE, dealing_check, rtp_text
from tables.admin.table_forms import (
    LIMIT_FIELDS,
    CloneForm,
    DealerForm,
    LimitsForm,
    RulesForm,
    SetupForm,
    ShoeForm,
    TableCreateForm,
)
from tables.services.versions import rtp_by_stake

Status = models.Table.Status
CardSource = models.Table.CardSource


def _status(name: str, verb: str):
    service = getattr(services, f"table_{name}")

    def perform(*, request, obj, actor, data):
        table = service(actor=actor, table_id=obj.pk)
        return f"Table {table.code} {verb}."

    return perform


def _limits(*, request, obj, actor, data):
    services.table_limits_set(
        actor=actor, table_id=obj.pk, **{name: data[name] for name in LIMIT_FIELDS}
    )
    return f"New limits for {obj.code}: they apply from the next round."


def _dealer(*, request, obj, actor, data):
    services.table_dealer_assign(actor=actor, table_id=obj.pk, dealer=data["dealer"])
    return f"{data['dealer']} deals at {obj.code} from the next round."


def _clone(*, request, obj, actor, data):
    table = services.table_clone(actor=actor, table_id=obj.pk, code=data["code"], name=data["name"])
    return reverse("admin:tables_table_change", args=[table.pk])


def _retire(*, request, obj, actor, data):
    services.table_retire(actor=actor, table_id=obj.pk)
    return f"Table {obj.code} is retired."


def _setup(*, request, obj, actor, data):
    table = services.table_setup_set(
        actor=actor,
        table_id=obj.pk,
        name=data["name"],
        pit=data["pit"],
        card_source=data["card_source"],
    )
    return f"{table.code}: {table.name}, pit {table.pit or 'none'}, {table.card_source}."


def _dealer_break(*, request, obj, actor, data):
    services.dealer_break_start(actor=actor, dealer=obj.dealer)
    return f"{obj.dealer} is on break."


def _dealer_back(*, request, obj, actor, data):
    if services.dealer_break_end(actor=actor, dealer=obj.dealer) is None:
        raise Conflict(f"{obj.dealer} is not on break.")
    return f"{obj.dealer} is back from break."


def _dealer_release(*, request, obj, actor, data):
    services.table_dealer_release(actor=actor, table_id=obj.pk)
    return f"{obj.code} has no dealer now."


def _rules(*, request, obj, actor, data):
    _, figure = services.table_rules_set(
        actor=actor,
        table_id=obj.pk,
        rule_set=data["rule_set"],
        payout_schedule=data["payout_schedule"],
    )
    return (
        f"{obj.code} plays {data['rule_set']} / {data['payout_schedule']} from the next round "
        f"(theoretical RTP {rtp_text(figure)})."
    )


def rtp_rows(rule_set, payout_schedule) -> dict[str, str]:
    """A pair's theoretical RTP as the console shows it before anything is activated."""
    rule_set, payout_schedule = console_selectors.version_pair(rule_set, payout_schedule)
    if rule_set is None or payout_schedule is None:
        return {"Theoretical RTP": "choose a rule set and a payout schedule"}
    # A preset pair's shipped figure at once; another pair's is queued ("pending").
    pair = (rule_set.pk, payout_schedule.pk)
    figure = services.rtp_figures_ensure(pairs=[pair])[pair]
    by_stake = rtp_by_stake(rule_set=rule_set, payout_schedule=payout_schedule)
    return {
        "Rule set": str(rule_set),
        "Payout schedule": str(payout_schedule),
        "Theoretical RTP": rtp_text(figure),
        **({"RTP by stake (fixed Super Bonus prizes)": by_stake} if by_stake else {}),
        "Method": figure.method,
    }


def limits_text(data: dict, currency: str) -> str:
    def money(key: str) -> str:
        return money_text(data.get(key), currency)

    text = f"{money('min_bet')} - {money('max_bet')}"
    if data.get("box_max"):
        text += f" (box {money('box_max')})"
    return text


def _rules_preview(*, obj, data):
    return {
        **rtp_rows(
            data.get("rule_set") or obj.rule_set, data.get("payout_schedule") or obj.payout_schedule
        ),
        "Currently": f"{obj.rule_set} / {obj.payout_schedule}",
    }


def _limits_preview(*, obj, data):
    """The limits in money and the RTP of the table's rules at those stakes (a schedule with
    fixed prizes pays a different RTP by stake), before the change applies."""
    data = {k: v for k, v in data.items() if v not in (None, "")} or {
        k: getattr(obj, k) for k in LIMIT_FIELDS
    }
    return {
        "Limits": limits_text(data, obj.currency),
        "Currently": limits_text({k: getattr(obj, k) for k in LIMIT_FIELDS}, obj.currency),
        **rtp_rows(obj.rule_set, obj.payout_schedule),
    }


def create_preview(*, data):
    """The "Add table" page's check before creation: the pair's RTP and the limits."""
    return {
        **rtp_rows(data.get("rule_set"), data.get("payout_schedule")),
        "Limits": limits_text(data, data.get("currency") or "EUR")
        if data.get("min_bet") and data.get("max_bet")
        else "—",
    }


def table_create(*, actor, data) -> models.Table:
    return services.table_create(
        actor=actor,
        casino=data["casino"],
        code=data["code"],
        name=data["name"],
        rule_set=data["rule_set"],
        payout_schedule=data["payout_schedule"],
        currency=data["currency"],
        card_source=data["card_source"],
        pit=data["pit"],
        **{name: data[name] for name in LIMIT_FIELDS},
    )


def _shoe(*, request, obj, actor, data):
    dealing_check(request, obj)
    shoe = services.shoe_load(
        actor=actor,
        table_id=obj.pk,
        shuffle_method=data["shuffle_method"],
        device_id=data["device_id"],
        commitment=data["commitment"],
    )
    return f"New shoe {shoe.pk} loaded at {obj.code}; the previous shoe is retired."


def _server_shoe(*, request, obj, actor, data):
    shoe = services.shoe_replace(actor=actor, table_id=obj.pk)
    return f"New shoe {shoe.pk} shuffled at {obj.code}; the previous shoe is retired and revealed."


def _refs(obj) -> dict:
    return {"table_id": obj.pk, "casino_id": obj.casino_id}


def _action(name: str, label: str, perform, **options) -> ObjectAction:
    options.setdefault("permissions", (OPERATE,))
    return ObjectAction(name=name, label=label, perform=perform, references=_refs, **options)


def _has_dealer(table) -> bool:
    return table.dealer_id is not None


def _limits_initial(table) -> dict:
    return {name: getattr(table, name) for name in LIMIT_FIELDS}


TABLE_ACTIONS = (
    _action(
        "open",
        "Open table",
        _status("open", "is open"),
        available=lambda t: t.status == Status.CLOSED,
        one_click=True,
    ),
    _action(
        "resume",
        "Resume table",
        _status("resume", "is open again"),
        available=lambda t: t.status == Status.PAUSED,
        one_click=True,
    ),
    _action(
        "pause",
        "Pause table",
        _status("pause", "is paused: the round in play finishes, no new round opens"),
        available=lambda t: t.status == Status.OPEN,
        dangerous=True,
        help="The round in play finishes; no new round opens until the table is resumed.",
    ),
    _action(
        "close",
        "Close table",
        _status("close", "is closed"),
        available=lambda t: t.status != Status.CLOSED,
        dangerous=True,
        help="Refused while a round is in play. The shoe is retired and its shuffle revealed; "
        "every player leaves their seat.",
    ),
    _action(
        "limits",
        "Change limits",
        _limits,
        form=LimitsForm,
        initial=_limits_initial,
        preview=_limits_preview,
        preview_button="Show limits and RTP",
        help="Limits and timers apply from the next round; the change is logged. Check the "
        "limits in money and the rules' RTP at those stakes first.",
    ),
    _action(
        "setup",
        "Name, pit, card source",
        _setup,
        form=SetupForm,
        initial=lambda t: {"name": t.name, "pit": t.pit_id, "card_source": t.card_source},
        help="The pit groups the table on the floor; the card source (server shoe or card "
        "reader) changes only while the table is closed. The change is logged.",
    ),
    _action(
        "dealer",
        "Assign dealer",
        _dealer,
        form=DealerForm,
        initial=lambda t: {"dealer": t.dealer_id},
        help="The new dealer deals from the next round; the rotation log records it. "
        "A dealer holding another table is refused: relieve them there first.",
    ),
    _action(
        "clone",
        "Clone table",
        _clone,
        form=CloneForm,
        help="A new closed table with this one's pit, rules, currency, card source, limits "
        "and timers; change them on its page, then open it.",
    ),
    _action(
        "retire",
        "Retire table",
        _retire,
        available=lambda t: t.status == Status.CLOSED and t.retired_at is None,
        dangerous=True,
        help="The table leaves the floor for good and never opens again; its history stays.",
    ),
    _action(
        "dealer_break",
        "Dealer on break",
        _dealer_break,
        available=_has_dealer,
        help="The dealer of record leaves for a break; the floor shows the table as dealer "
        "away while it is open, until they are back or relieved.",
    ),
    _action("dealer_back", "Dealer back", _dealer_back, available=_has_dealer, one_click=True),
    _action(
        "dealer_release",
        "Release dealer",
        _dealer_release,
        available=_has_dealer,
        help="The dealer leaves the table with no relief; the table has no dealer.",
    ),
    _action(
        "rules",
        "Change rules",
        _rules,
        form=RulesForm,
        initial=lambda t: {"rule_set": t.rule_set_id, "payout_schedule": t.payout_schedule_id},
        preview=_rules_preview,
        preview_button="Show theoretical RTP",
        dangerous=True,
        help="Check the pair's theoretical RTP, then activate it: it applies from the next round.",
    ),
    _action(
        "shoe",
        "New shoe",
        _shoe,
        permissions=(OPERATE, DEAL),
        form=ShoeForm,
        available=lambda t: t.card_source == CardSource.CARD_READER and t.status != Status.CLOSED,
        help="Load a new shoe into the card reader with its shuffle record; the current shoe "
        "is retired (a live round continues from the new shoe).",
    ),
    _action(
        "server_shoe",
        "New shoe",
        _server_shoe,
        available=lambda t: t.card_source == CardSource.SERVER_SHOE and t.status != Status.CLOSED,
        dangerous=True,
        help="Retire the current shoe (its order is revealed and checked against the "
        "commitment) and shuffle a new one for the next round.",
    ),
)

CREATE_HELP = (
    "A new closed table. Check the rules' theoretical RTP and the limits first (“Show "
    "theoretical RTP”); the creation is logged with its whole configuration. Open the table "
    "from its page."
)
__all__ = ["CREATE_HELP", "TABLE_ACTIONS", "TableCreateForm", "create_preview", "table_create"]
