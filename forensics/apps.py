from django.apps import AppConfig


class ForensicsConfig(AppConfig):
    """The audit log's investigation tools: replay, reports, disputes, the regulator's bundle
    and the audit browser. They read tables and the ledger; the log's core (``audit``), which
    every app writes to, imports neither, so the apps layer one way (``.importlinter``)."""

    name = "forensics"
    verbose_name = "Audit investigation"
