"""Celery adapters over tables services (acks_late and reject-on-worker-lost are the project
default). Every task is safe to run late, twice, or after the thing it guards already happened:
the services check the round's state under its row lock."""

from celery import shared_task
from django.db import DatabaseError

from casino.actors import Actor
from tables import services


@shared_task(name="tables.round_betting_close_due")
def round_betting_close_due_task(round_id: int) -> bool:
    return services.round_betting_close_due(round_id=round_id)


@shared_task(name="tables.round_timeout_apply")
def round_timeout_apply_task(round_id: int, token: int) -> bool:
    return services.round_timeout_apply(round_id=round_id, token=token)


@shared_task(
    bind=True,
    name="tables.round_settle",
    acks_late=True,
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=10,
)
def round_settle_task(self, round_id: int) -> str:
    actor = Actor.system("tables.settlement", task_id=self.request.id or "")
    return services.round_settle(round_id=round_id, actor=actor)


@shared_task(name="tables.void_request_expire")
def void_request_expire_task(request_id: int) -> bool:
    return services.void_request_expire(request_id=request_id)


@shared_task(name="tables.timers_sweep")
def timers_sweep_task() -> dict:
    return services.timers_sweep()


@shared_task(name="tables.rtp_compute")
def rtp_compute_task(rule_set_id: int, payout_schedule_id: int) -> str:
    figure = services.rtp_compute_store(
        rule_set_id=rule_set_id, payout_schedule_id=payout_schedule_id
    )
    return str(figure.rtp)
