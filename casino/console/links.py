"""Links from the pit console to the audit pages: the log, its verification status, round
replays and reports (the audit app's pages are linked when they exist)."""

from __future__ import annotations

from django.urls import NoReverseMatch, reverse


def _url(name: str, query: str = "", **kwargs) -> str | None:
    """A page of the audit app if it is installed (its URL name resolves), else None."""
    try:
        return reverse(name, kwargs=kwargs or None) + query
    except NoReverseMatch:
        return None


def _admin(name: str, query: str = "") -> str | None:
    return _url(f"admin:{name}", query)


EVENTS, REPORTS, DISPUTES = "audit.view_auditevent", "audit.view_report", "audit.view_disputecase"


def audit_links(*, table=None, round=None, user=None) -> list[dict]:
    """[{label, url}] for the audit pages about a round, a table or the whole floor; with
    ``user``, only the pages they may open (a dealer sees no report link ending in a 403)."""
    log = reverse("admin:audit_auditevent_changelist")
    if round is not None:
        candidates = [
            ("Round replay", _url("audit-console-replay", round_id=round.pk), EVENTS),
            ("Audit events of this round", f"{log}?round_id={round.pk}", EVENTS),
            (
                "Disputes about this round",
                _admin("audit_disputecase_changelist", f"?round__id__exact={round.pk}"),
                DISPUTES,
            ),
            (
                "Open a dispute case",
                _admin("audit_disputecase_add", f"?round={round.pk}"),
                "audit.add_disputecase",
            ),
        ]
        if user is None:  # only offered to someone known to be allowed
            candidates.pop()
    elif table is not None:
        report = _url("audit-console-report", f"?table={table.pk}", kind="table-shift")
        candidates = [
            ("Table report", report, REPORTS),
            ("Audit events of this table", f"{log}?table_id={table.pk}", EVENTS),
        ]
    else:
        candidates = [
            ("Reports", _url("audit-console-reports"), REPORTS),
            ("Round replay", _url("audit-console-replay-find"), EVENTS),
            ("Disputes", _admin("audit_disputecase_changelist"), DISPUTES),
            ("Audit log", log, EVENTS),
        ]
    return [
        {"label": label, "url": url}
        for label, url, perm in candidates
        if url and (user is None or user.has_perm(perm))
    ]


def verification_status(latest: dict | None) -> dict:
    """The dashboard's status line for the chain verification's last recorded outcome (as
    ``audit_verification_latest`` reads it: the floor carries it, read once per render)."""
    if latest is None:
        return {"state": "unknown", "text": "Audit chain: not verified yet"}
    url = reverse("admin:audit_auditevent_change", args=[latest["event_id"]])
    when = latest["recorded_at"].strftime("%Y-%m-%d %H:%M")
    if latest.get("ok"):
        return {"state": "ok", "text": f"Audit chain verified {when}", "url": url}
    return {"state": "failed", "text": f"Audit chain verification FAILED {when}", "url": url}
