"""Property: however writers interleave (and roll back), every committed event is sealed once."""

import random
import threading
import time
from collections import Counter

import pytest
from django.db import connection, transaction

from audit.models import AuditEvent
from audit.sealing import audit_chain_seal
from audit.verification import audit_chain_verify
from tests.audit.helpers import record, seal_everything
from tests.audit.test_chain import sealed_ids

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("empty_log")]


class RolledBack(Exception):
    pass


def writer(seed: int, committed: list[int], errors: list[BaseException]) -> None:
    rng = random.Random(seed)
    try:
        for _ in range(12):
            try:
                with transaction.atomic():
                    ids = record(rng.randint(1, 3))
                    time.sleep(rng.random() * 0.01)
                    if rng.random() < 0.2:
                        raise RolledBack
                committed.extend(ids)
            except RolledBack:
                pass
    except BaseException as error:  # surfaced by the test thread
        errors.append(error)
    finally:
        connection.close()


def sealer(stop: threading.Event, errors: list[BaseException]) -> None:
    try:
        while not stop.is_set():
            audit_chain_seal(max_events=random.randint(1, 8))
    except BaseException as error:
        errors.append(error)
    finally:
        connection.close()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_interleaved_writers_and_sealers_chain_every_event_exactly_once(seed):
    committed: list[int] = []
    errors: list[BaseException] = []
    stop = threading.Event()
    sealers = [threading.Thread(target=sealer, args=(stop, errors)) for _ in range(2)]
    writers = [
        threading.Thread(target=writer, args=(seed * 100 + n, committed, errors)) for n in range(6)
    ]
    for thread in sealers + writers:
        thread.start()
    for thread in writers:
        thread.join()
    stop.set()
    for thread in sealers:
        thread.join()
    assert not errors, errors
    seal_everything()

    chained = sealed_ids()
    assert Counter(chained) == Counter(committed), "each committed event sealed exactly once"
    assert set(AuditEvent.objects.values_list("pk", flat=True)) == set(committed)
    order = dict(AuditEvent.objects.values_list("pk", "txid"))
    keys = [(order[event_id], event_id) for event_id in chained]
    assert keys == sorted(keys), "the chain follows (txid, id)"
    report = audit_chain_verify()
    assert report.ok, report.problem
    assert report.events_verified == len(committed) and report.events_pending == 0
