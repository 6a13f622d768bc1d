"""``manage.py gamemath``: exact house edge, strategy and dealer distribution of a game."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand

from ._gamecli import add_game_arguments, load_game, stake_minor


class Command(BaseCommand):
    help = (
        "Exact finite-shoe game maths of a preset or a JSON rule set: house edge (percent), "
        "method, composition-dependent strategy; --dealer: the dealer's final-result "
        "distribution from a fresh shoe."
    )

    def add_arguments(self, parser):
        add_game_arguments(parser)
        parser.add_argument("--dealer", action="store_true", help="dealer distribution only")

    def handle(self, *args, **options):
        from tables.engine.gamemath import dealer_distribution, game_maths

        variant, rules, payouts = load_game(options)
        if options["dealer"]:
            dist = dealer_distribution(rules)
            out = {
                "variant": variant,
                "dealer_rule": rules.dealer_rule,
                "decks": rules.decks,
                "deck_kind": rules.deck_kind,
                "note": "from a fresh shoe, before any peek; banker's choice uses the house "
                "policy (draw below the stand total)",
                "dealer": dist,
            }
            if options["json"]:
                self.stdout.write(json.dumps(out, indent=2))
            else:
                self.stdout.write(f"{variant}: dealer final result from a fresh shoe")
                for k, v in dist.items():
                    self.stdout.write(f"  {k:>9}  {v:.6f}")
            return
        m = game_maths(rules, payouts, variant, stake_minor(options))
        out = m.to_json()
        if options["json"]:
            self.stdout.write(json.dumps(out, indent=2))
            return
        self.stdout.write(
            f"{variant}: house edge {m.house_edge:.4f} % at stake {options['stake'] or '(none)'} "
            f"({m.seconds:.1f} s, {m.states} states)"
        )
        self.stdout.write(f"method: {m.method}")
        for up, row in m.strategy.items():
            self.stdout.write(f"dealer {up}: " + " ".join(f"{h}={a}" for h, a in row.items()))
        for k, v in m.extras.items():
            self.stdout.write(f"{k}: {v}")
