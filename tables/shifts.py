"""The shift calendar of a casino: gaming days and named shifts in local time, as UTC intervals.

Pure Python (zoneinfo), no Django: ``tables.selectors`` builds a ``ShiftCalendar`` from the
casino's ``ShiftPlan`` rows. A plan takes effect from a gaming day and lists the shifts by local
start time; the gaming day starts with the plan's ``gaming_day_starts`` (normally the first
shift's start) on its local date and ends where the next gaming day starts, so days and shifts
tile time with no gap or overlap even when the plan changes or the clocks do.

Local times that the clocks skip (spring forward) or repeat (fall back) are resolved by
zoneinfo's ``fold=0``: a skipped time is read with the offset before the change (01:30 on
London's spring Sunday is 01:30 GMT, i.e. 02:30 BST), a repeated one is its first occurrence.
A shift spanning a change is an hour longer or shorter than usual.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo


@dataclass(frozen=True)
class Plan:
    effective_from: date
    gaming_day_starts: time
    shifts: tuple[tuple[str, time], ...]  # (name, local start time)

    def ordered(self) -> list[tuple[str, time, int]]:
        """Shifts in gaming-day order with the day offset (0 or 1) of their local start date."""
        out = [(name, starts, int(starts < self.gaming_day_starts)) for name, starts in self.shifts]
        return sorted(out, key=lambda s: (s[2], s[1]))


@dataclass(frozen=True)
class ShiftSpan:
    gaming_day: date
    shift: str
    start: datetime  # UTC, inclusive
    end: datetime  # UTC, exclusive

    def __contains__(self, instant: datetime) -> bool:
        return self.start <= instant < self.end


# A casino with no plan: one shift a day, the gaming day being the local calendar day.
DEFAULT_PLAN = Plan(date.min, time(0), (("day", time(0)),))


class ShiftCalendar:
    def __init__(self, time_zone: str, plans: list[Plan] | None = None) -> None:
        self.zone = ZoneInfo(time_zone)
        self.plans = sorted(plans or [DEFAULT_PLAN], key=lambda p: p.effective_from)
        self._starts = [p.effective_from for p in self.plans]

    def plan_on(self, day: date) -> Plan:
        index = bisect.bisect_right(self._starts, day) - 1
        return self.plans[max(index, 0)]

    def _utc(self, day: date, local: time) -> datetime:
        return datetime.combine(day, local, tzinfo=self.zone).astimezone(UTC)

    def day_start(self, day: date) -> datetime:
        return self._utc(day, self.plan_on(day).gaming_day_starts)

    def spans(self, day: date) -> list[ShiftSpan]:
        """The shifts of gaming day ``day`` as UTC intervals, in order."""
        ordered = self.plan_on(day).ordered()
        day_end = self.day_start(day + timedelta(days=1))
        # A later plan may start the next day before this day's last shifts would have: they
        # are cut short there, or left out.
        starts = [
            min(self._utc(day + timedelta(days=offset), t), day_end) for _, t, offset in ordered
        ]
        starts[0] = self.day_start(day)  # the first shift opens the day even if set later
        ends = [*starts[1:], day_end]
        return [
            ShiftSpan(day, name, start, end)
            for (name, _, _), start, end in zip(ordered, starts, ends, strict=True)
            if start < end
        ]

    def spans_between(self, first: date, last: date) -> list[ShiftSpan]:
        out: list[ShiftSpan] = []
        day = first
        while day <= last:
            out += self.spans(day)
            day += timedelta(days=1)
        return out

    def span_at(self, instant: datetime) -> ShiftSpan:
        """The shift (and so the gaming day) containing ``instant``."""
        if instant.tzinfo is None:
            raise ValueError("instant must be timezone-aware")
        local_day = instant.astimezone(self.zone).date()
        for day in (local_day - timedelta(days=1), local_day, local_day + timedelta(days=1)):
            for span in self.spans(day):
                if instant in span:
                    return span
        raise LookupError(f"no shift contains {instant.isoformat()}")  # pragma: no cover

    def gaming_day_of(self, instant: datetime) -> date:
        return self.span_at(instant).gaming_day

    def span_of(self, day: date, shift: str) -> ShiftSpan:
        """The UTC interval of shift ``shift`` on gaming day ``day``."""
        for span in self.spans(day):
            if span.shift == shift:
                return span
        raise KeyError(shift)
