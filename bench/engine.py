"""Engine simulation and game-maths benchmark (architecture §4).

For each preset: game-maths time (target ≤ 30 s), simulator hands/s on ONE core (target
≥ 100,000) and its ratio to the games/s of the ``cardsharp`` 0.5.0 pure-Python blackjack
simulator measured in the same run (target ≥ 5x). cardsharp needs Python 3.12: the bench makes
a venv under ``.data/bench-cardsharp`` with a pyenv 3.12 and runs cardsharp in a subprocess;
without 3.12 it says so and reports the ratio as unavailable.

``python -m bench.engine [--hands N] [--long]``: ``--long`` also plays 20 million hands per
preset (and, for crown, at each Super Bonus tier's lowest and highest stake) on every core and
checks simulation and maths agree within three standard errors.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench.report import result

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".data" / "bench-cardsharp"
RUNNER = Path(__file__).resolve().parent / "_cardsharp" / "runner.py"
PRESETS = ("crown", "british_casino", "online_8deck", "online_2deck", "traditional")


def _python312() -> str | None:
    cands = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12*/bin/python")))
    cands += sorted(glob.glob("/root/.pyenv/versions/3.12*/bin/python"))
    for c in cands:
        if os.access(c, os.X_OK):
            return c
    return None


def cardsharp_games_per_second(games: int) -> tuple[float | None, str]:
    py = VENV / "bin" / "python"
    if not py.exists():
        base = _python312()
        if base is None:
            return None, "Python 3.12 not found (pyenv): cardsharp baseline unavailable"
        subprocess.run([base, "-m", "venv", str(VENV)], check=True)  # noqa: S603
        subprocess.run(  # noqa: S603
            [str(py), "-m", "pip", "install", "-q", "cardsharp==0.5.0"],
            check=True,
            capture_output=True,
        )
    proc = subprocess.run(  # noqa: S603
        [str(py), str(RUNNER), str(games)], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        return None, f"cardsharp failed: {proc.stderr[-500:]}"
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    return data["games_per_second"], "cardsharp 0.5.0 play_game_batch, 1 player, 6 decks, 1 core"


def line(name: str, figure: str, baseline: str, ratio: str, target: str) -> None:
    print(f"{name} | {figure} | {baseline} | {ratio} | {target}", flush=True)


def _long_runs(name, r, p, m) -> bool:
    """20 million hands against the maths, within three standard errors: the preset as is and,
    where the schedule has fixed Super Bonus prizes, at each tier's lowest and highest stake
    (the stake-aware strategy, the prize paid at that stake)."""
    from tables.engine.gamemath import game_maths_by_stake, stake_points
    from tables.engine.simulator import simulate

    runs = [(None, m)]
    if p.super_bonus_tiers:
        stakes = [s for s in stake_points(p) if s is not None]
        runs += list(game_maths_by_stake(r, p, stakes, variant=name).items())
    ok = True
    for i, (stake, maths) in enumerate(runs):
        workers = os.cpu_count() or 1
        long = simulate(r, p, 20_000_000, seed=2026 + i, workers=workers, maths=maths, variant=name)
        z = (long.house_edge - maths.house_edge) / long.standard_error
        at = "" if stake is None else f" at {stake / 100:.2f}"
        line(
            f"{name}{at} 20M house edge %",
            f"{long.house_edge:.4f} ± {long.standard_error:.4f} (seed {2026 + i})",
            f"{maths.house_edge:.4f} (maths)",
            f"z {z:+.2f}",
            "|z| <= 3",
        )
        ok &= abs(z) <= 3
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=2_000_000, help="hands per preset, one core")
    ap.add_argument("--cardsharp-games", type=int, default=20_000)
    ap.add_argument("--long", action="store_true", help="20M hands per preset, all cores")
    ap.add_argument("--presets", nargs="*", default=list(PRESETS))
    args = ap.parse_args(argv)

    from tables.engine import get_preset
    from tables.engine.gamemath import game_maths
    from tables.engine.simulator import simulate

    cs, cs_note = cardsharp_games_per_second(args.cardsharp_games)
    print(f"# baseline: {cs_note}", flush=True)
    line("name", "figure", "baseline", "ratio", "target")
    if cs is not None:
        line("cardsharp games/s (1 core)", f"{cs:,.0f}", "-", "-", "baseline")
    ok_all = True
    for name in args.presets:
        r, p = get_preset(name)
        t0 = time.perf_counter()
        m = game_maths(r, p, name)
        mt = time.perf_counter() - t0
        line(f"{name} game maths s", f"{mt:.1f}", "-", "-", "<= 30 s")
        result(
            name=f"{name} game maths time",
            figure=mt,
            unit="s",
            baseline_name="target",
            baseline=30.0,
            target="<= 30 s",
            ok=mt <= 30,
        )
        ok_all &= mt <= 30
        res = simulate(r, p, args.hands, seed=1, workers=1, maths=m, variant=name)
        hps = res.hands_per_second_per_core
        ratio = hps / cs if cs else None
        line(
            f"{name} hands/s (1 core)",
            f"{hps:,.0f}",
            f"{cs:,.0f} cardsharp games/s" if cs else "unavailable",
            f"{ratio:.1f}x" if ratio else "unavailable",
            ">= 100,000 and >= 5x",
        )
        ok = hps >= 100_000 and (ratio is None or ratio >= 5)
        result(
            name=f"{name} simulator hands/s (1 core)",
            figure=hps,
            unit="hands/s",
            baseline_name="cardsharp 0.5.0 games/s" if cs else "cardsharp unavailable",
            baseline=cs or 0.0,
            target=">= 100,000 hands/s and >= 5x cardsharp",
            ratio=ratio,
            ok=ok,
        )
        ok_all &= ok
        line(
            f"{name} house edge %",
            f"{res.house_edge:.4f} ± {res.standard_error:.4f} (sim, {res.hands:,})",
            f"{m.house_edge:.4f} (maths)",
            f"z {(res.house_edge - m.house_edge) / res.standard_error:+.2f}",
            "|z| <= 3",
        )
        if args.long:
            ok_all &= _long_runs(name, r, p, m)
    return 0 if ok_all else 1


if __name__ == "__main__":
    sys.exit(main())
