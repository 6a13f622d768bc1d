from django.apps import AppConfig


class LedgerConfig(AppConfig):
    name = "ledger"
    verbose_name = "Ledger"

    def ready(self):
        from ledger import sealed  # noqa: F401 (registers the secret keys check)
