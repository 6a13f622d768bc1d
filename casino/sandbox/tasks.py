"""Celery adapter of the sandbox dealer (run by beat; a late or doubled pass is harmless: each
step is a service that checks the round's state under its row lock)."""

from celery import shared_task

from casino.sandbox import services


@shared_task(name="sandbox.tables_drive")
def sandbox_tables_drive_task() -> dict[str, int]:
    return services.sandbox_tables_drive()
