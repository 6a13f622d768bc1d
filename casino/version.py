"""The software version every report states: ``pyproject.toml``'s version (read once).

Reports and replays carry it so a figure can always be traced to the code that produced it.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"


@cache
def software_version() -> str:
    try:
        with PYPROJECT.open("rb") as handle:
            return str(tomllib.load(handle)["project"]["version"])
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"
