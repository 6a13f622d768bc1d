import pytest

from casino.actors import Actor

ACTOR = Actor.system("tests.faults")


@pytest.fixture
def betting_world(transactional_db):
    """Open rounds for one operator's players: ``make(tables=, players=, funding=)`` returns the
    API key, each player's bet slots (round, player, box, behind, stake) and the wallets. Every
    player has ``tables`` tables of its own and controls every box there (Crown rules with
    ``boxes`` boxes a player), so no two slots collide."""
    from casino.api.services import api_key_issue
    from ledger.models import Operator, Player
    from ledger.services import wallet_deposit, wallet_open
    from tables import engine as eng
    from tables import services
    from tables.models import Casino

    def make(*, tables: int, players: int, funding: int, boxes: int = 20, stake: int = 100):
        crown = eng.PRESETS["crown"]
        doc = {**crown.rules.to_json(), "name": "faults", "boxes": boxes,
               "max_boxes_per_player": boxes, "bets_per_box": 1}  # fmt: skip
        rule_set = services.rule_set_version_create(actor=ACTOR, name="faults", document=doc)
        schedule = services.payout_schedule_version_create(
            actor=ACTOR, name="faults", document=crown.payouts.to_json()
        )
        casino, _ = Casino.objects.get_or_create(code="main", defaults={"name": "Main"})
        operator = Operator.objects.create(code="faults-op", name="Faults operator")
        _, key = api_key_issue(actor=ACTOR, operator=operator, label="faults")
        wallets = []
        for p in range(players):
            player = Player.objects.create(operator=operator, external_ref=f"f{p}")
            wallet, _ = wallet_open(actor=ACTOR, player=player, currency="EUR")
            wallet_deposit(actor=ACTOR, wallet=wallet, amount=funding)
            wallets.append(wallet)
        slots = [[] for _ in wallets]
        for t in range(tables * players):
            wallet = wallets[t % players]
            table = services.table_create(
                actor=ACTOR, casino=casino, code=f"faults-{t}", name=f"Faults {t}",
                rule_set=rule_set, payout_schedule=schedule, card_source="card_reader",
                min_bet=stake, betting_seconds=3600,
            )  # fmt: skip
            services.table_open(actor=ACTOR, table_id=table.pk)
            rnd = services.round_open(actor=ACTOR, table_id=table.pk)
            slots[t % players] += [
                (rnd.pk, wallet.player_id, box, False, stake) for box in range(1, boxes + 1)
            ]
        return key, slots, wallets

    return make
