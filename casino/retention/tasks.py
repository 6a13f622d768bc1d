from celery import shared_task

from casino.actors import Actor
from casino.retention.services import partitions_ensure


@shared_task(name="retention.partitions_ensure", bind=True)
def partitions_ensure_task(self) -> list[str]:
    """Scheduled daily by beat: the next months' partitions exist long before they fill."""
    return partitions_ensure(actor=Actor.system("retention.partitions_ensure"))
