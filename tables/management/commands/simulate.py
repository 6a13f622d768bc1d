"""``manage.py simulate``: Monte-Carlo house edge of a game with the computed strategy."""

from __future__ import annotations

import json
import os
import sys

from django.core.management.base import BaseCommand, CommandError

from ._gamecli import add_game_arguments, load_game, stake_minor


class Command(BaseCommand):
    help = (
        "Play N rounds (one box, unit stake) with the game maths' strategy in parallel; "
        "house edge with its standard error, result frequencies, hands per second."
    )

    def add_arguments(self, parser):
        add_game_arguments(parser)
        parser.add_argument("--hands", type=int, default=1_000_000)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
        parser.add_argument("--no-progress", action="store_true")

    def handle(self, *args, **options):
        from tables.engine.gamemath import game_maths
        from tables.engine.simulator import simulate

        if options["hands"] < 1:
            raise CommandError("--hands must be at least 1")
        variant, rules, payouts = load_game(options)
        maths = game_maths(rules, payouts, variant, stake_minor(options))
        res = simulate(
            rules,
            payouts,
            options["hands"],
            seed=options["seed"],
            workers=max(1, options["workers"]),
            maths=maths,
            progress=not options["no_progress"] and sys.stderr.isatty(),
            variant=variant,
        )
        out = res.to_json()
        out["maths_house_edge"] = maths.house_edge
        out["z"] = (
            (res.house_edge - maths.house_edge) / res.standard_error if res.standard_error else 0
        )
        if options["json"]:
            self.stdout.write(json.dumps(out, indent=2))
            return
        self.stdout.write(
            f"{variant}: {res.hands} hands, house edge {res.house_edge:.4f} % "
            f"± {res.standard_error:.4f} (maths {maths.house_edge:.4f} %, z {out['z']:+.2f}), "
            f"{res.hands_per_second:,.0f} hands/s on {res.workers} worker(s)"
        )
        for k, v in res.frequencies.items():
            self.stdout.write(f"  {k:>16}  {v:.6f}")
