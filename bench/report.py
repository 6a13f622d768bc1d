"""How every benchmark reports: one ``RESULT`` line per figure, next to its same-run baseline.

``python -m bench`` runs every benchmark module and collects these lines into a table.
"""

import json
import platform
import sys


def machine() -> str:
    import os

    return f"{platform.machine()} {os.cpu_count()} cores, Python {sys.version.split()[0]}"


def result(
    *,
    name: str,
    figure: float,
    unit: str,
    baseline_name: str,
    baseline: float,
    target: str,
    ratio: float | None = None,
    ok: bool | None = None,
) -> dict:
    """Print and return one figure. ``ratio`` defaults to figure / baseline."""
    if ratio is None and baseline:
        ratio = figure / baseline
    row = {
        "name": name,
        "figure": round(figure, 3),
        "unit": unit,
        "baseline_name": baseline_name,
        "baseline": round(baseline, 3),
        "ratio": None if ratio is None else round(ratio, 3),
        "target": target,
        "ok": ok,
        "machine": machine(),
    }
    print("RESULT " + json.dumps(row), flush=True)
    return row
