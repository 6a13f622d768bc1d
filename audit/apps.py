from django.apps import AppConfig


class AuditConfig(AppConfig):
    name = "audit"
    verbose_name = "Audit"

    def ready(self):
        from audit import checks, signals  # noqa: F401 (connects receivers, registers checks)
