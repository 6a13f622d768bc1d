"""The differences a replay finds: each names its kind, the bet (its ``ref``) and the line, the
replayed and the found value and where the found one came from (ledger, round record, audit
log, shoe, engine)."""

from __future__ import annotations

from typing import Any


class Differences(list):
    """The replay's differences, in the order found (a list of plain dicts)."""

    def add(self, kind: str, detail: str, **fields: Any) -> None:
        entry = {"kind": kind, "bet_ref": "", "line": None, "hand": "", "field": ""}
        entry.update(fields)
        entry.update(
            detail=detail,
            replay=fields.get("replay"),
            found=fields.get("found"),
            source=fields.get("source", ""),
        )
        self.append(entry)

    def line(self, entry, field, replay, found, source, why: str = "") -> None:
        """A replayed settlement line that disagrees with ``source``: the line is marked."""
        entry["match"] = False
        self.add(
            "line",
            why
            or f"bet {entry['bet_ref']} line {entry['line']} ({entry['hand']}, "
            f"{entry['result']}): {field} replays as {replay}, {source} has {found}",
            bet_ref=entry["bet_ref"],
            line=entry["line"],
            hand=entry["hand"],
            field=field,
            replay=replay,
            found=found,
            source=source,
        )
