"""Run every benchmark under bench/ and print one table of figures and baselines.

Usage: ``python -m bench [name ...]`` (``make bench``). Each benchmark is a module in this
folder with a ``main()``; it runs in its own process and prints ``RESULT`` lines
(``bench/report.py``).
"""

import json
import pkgutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKIP = {"__main__", "report"}


def main(argv: list[str]) -> int:
    names = argv or sorted(
        m.name
        for m in pkgutil.iter_modules([str(HERE)])
        if m.name not in SKIP and not m.name.startswith("_")  # _helpers are no benchmarks
    )
    rows, failed = [], []
    for name in names:
        print(f"== bench.{name}", flush=True)
        process = subprocess.run(  # noqa: S603
            [sys.executable, "-m", f"bench.{name}"],
            cwd=HERE.parent,
            capture_output=True,
            text=True,
        )
        sys.stdout.write(process.stdout)
        if process.returncode != 0:
            failed.append(name)
            sys.stdout.write(process.stderr[-3000:])
        rows += [
            json.loads(line[len("RESULT ") :])
            for line in process.stdout.splitlines()
            if line.startswith("RESULT ")
        ]
    print("\n| benchmark | figure | baseline (same run) | ratio | target | met | machine |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        met = "" if r["ok"] is None else ("yes" if r["ok"] else "**no**")
        print(
            f"| {r['name']} | {r['figure']} {r['unit']} | {r['baseline_name']}: {r['baseline']} "
            f"| {r['ratio']} | {r['target']} | {met} | {r['machine']} |"
        )
    if failed:
        print(f"\nfailed benchmarks: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
