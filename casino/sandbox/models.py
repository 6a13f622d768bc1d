from django.db import models


class SandboxOperator(models.Model):
    """Marks an operator as a sandbox (test-mode) operator: its keys see sandbox tables only
    and its players' wallets hold play money."""

    operator = models.OneToOneField(
        "ledger.Operator", primary_key=True, on_delete=models.PROTECT, related_name="sandbox"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"sandbox operator {self.operator_id}"


class SandboxTable(models.Model):
    """Marks a table as a sandbox table: seen by sandbox keys only, dealt by the server's shoe
    with the sandbox dealer (``services.sandbox_tables_drive``) opening rounds and playing the
    banker, in play money."""

    table = models.OneToOneField(
        "tables.Table", primary_key=True, on_delete=models.PROTECT, related_name="sandbox"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"sandbox table {self.table_id}"
