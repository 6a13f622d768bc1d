"""Sealing and verification: every event chained once, every kind of tampering named."""

import json
import threading

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from audit.heads import audit_head_export
from audit.models import AuditEvent, AuditSeal
from audit.sealing import audit_chain_seal, unpack_ids
from audit.services import audit_event_record
from audit.verification import audit_chain_verify, audit_verification_run
from casino.actors import Actor
from tests.audit.helpers import record, seal_everything, tamper

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("empty_log")]


def sealed_ids() -> list[int]:
    return [i for seal in AuditSeal.objects.order_by("seq") for i in unpack_ids(seal.event_ids)]


def seal_of(event_id: int) -> int:
    return next(s.seq for s in AuditSeal.objects.all() if event_id in unpack_ids(s.event_ids))


def test_sealing_chains_each_finished_event_once_in_transaction_order():
    first = record(5)
    seals = seal_everything()
    assert sum(s.event_count for s in seals) == 5
    assert audit_chain_seal() == []
    second = record(2)
    seal_everything()
    assert sealed_ids() == first + second
    report = audit_chain_verify()
    assert report.ok, report.problem
    seals = AuditSeal.objects.count()
    assert (report.events_verified, report.seals_verified, report.head_seq) == (7, seals, seals)


def test_a_big_backlog_is_split_into_seals_and_still_verifies():
    record(7)
    seals = seal_everything(max_events=3)
    assert len(seals) >= 3 and max(s.event_count for s in seals) == 3
    report = audit_chain_verify(chunk_events=2)
    assert report.ok and report.events_verified == 7


def test_an_open_transaction_holds_back_sealing_but_never_blocks_writers():
    started, release = threading.Event(), threading.Event()
    early: list[int] = []

    def slow_writer():
        try:
            with transaction.atomic():
                early.extend(record(1))
                started.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=slow_writer)
    thread.start()
    assert started.wait(10)
    late = record(1)  # a later transaction commits first, while the early one is still open
    assert audit_chain_seal() == []  # the open transaction's events could still appear
    release.set()
    thread.join()
    seal_everything()
    assert sealed_ids() == early + late  # (txid, id) order: the early transaction first
    assert audit_chain_verify().ok


@pytest.fixture
def sealed_log():
    ids = record(10)
    seal_everything(max_events=4)
    return ids


def test_a_modified_event_is_named(sealed_log):
    victim = sealed_log[6]
    tamper("UPDATE audit_auditevent SET payload = '{\"i\": 99}' WHERE id = %s", [victim])
    report = audit_chain_verify()
    assert not report.ok
    assert (report.problem.kind, report.problem.event_id) == ("modified", victim)
    assert report.problem.seal_seq == seal_of(victim)


def test_a_recomputed_content_hash_does_not_hide_a_modification(sealed_log):
    victim = sealed_log[0]
    tamper(
        "UPDATE audit_auditevent SET actor_label = 'someone else', content_hash = %s WHERE id = %s",
        ["f" * 64, victim],
    )
    problem = audit_chain_verify().problem
    assert (problem.kind, problem.event_id) == ("modified", victim)


def test_a_deleted_event_is_named(sealed_log):
    victim = sealed_log[3]
    tamper("DELETE FROM audit_auditevent WHERE id = %s", [victim])
    problem = audit_chain_verify().problem
    assert (problem.kind, problem.event_id, problem.seal_seq) == (
        "missing",
        victim,
        seal_of(victim),
    )


def test_a_forged_event_slipped_in_below_the_sealed_horizon_is_named(sealed_log):
    anchor = AuditEvent.objects.get(pk=sealed_log[4])
    forged = audit_event_record(name="bet.placed", actor=Actor.system("forger"))
    # Move the forgery into the sealed past, between two genuine events.
    tamper("UPDATE audit_auditevent SET txid = %s WHERE id = %s", [anchor.txid, forged.pk])
    problem = audit_chain_verify().problem
    assert (problem.kind, problem.event_id) == ("inserted", forged.pk)


def test_an_event_moved_in_the_order_is_named_modified(sealed_log):
    victim = sealed_log[2]
    last = AuditEvent.objects.get(pk=sealed_log[-1])
    tamper("UPDATE audit_auditevent SET txid = %s WHERE id = %s", [last.txid + 1, victim])
    problem = audit_chain_verify().problem
    assert (problem.kind, problem.event_id) == ("modified", victim)


def test_only_the_first_of_several_faults_is_named(sealed_log):
    tamper("DELETE FROM audit_auditevent WHERE id = %s", [sealed_log[8]])
    tamper("UPDATE audit_auditevent SET name = 'x' WHERE id = %s", [sealed_log[1]])
    problem = audit_chain_verify().problem
    assert (problem.kind, problem.event_id) == ("modified", sealed_log[1])


def test_a_rewritten_seal_is_named(sealed_log):
    tamper("UPDATE audit_auditseal SET event_count = event_count - 1 WHERE seq = 2")
    problem = audit_chain_verify().problem
    assert (problem.kind, problem.seal_seq) == ("seal_invalid", 2)


def test_a_removed_seal_is_named(sealed_log):
    tamper("DELETE FROM audit_auditseal WHERE seq = 2")
    problem = audit_chain_verify().problem
    assert (problem.kind, problem.seal_seq) == ("seal_missing", 2)


def test_a_chain_cut_short_is_caught_by_the_last_verification_and_by_an_anchor(sealed_log):
    anchor = audit_head_export()
    assert audit_verification_run(actor=Actor.system("tests")).ok
    head = AuditSeal.objects.count()
    tamper("DELETE FROM audit_auditseal WHERE seq = %s", [head])  # nothing after it to break
    report = audit_chain_verify()
    assert (report.problem.kind, report.problem.seal_seq) == ("head_mismatch", head)
    # An exported anchor catches it too, even without the recorded verification.
    tamper("DELETE FROM audit_auditevent WHERE name = 'audit.verified'")
    assert audit_chain_verify().ok  # the cut is invisible from inside the database alone...
    report = audit_chain_verify(anchor=anchor)
    assert (report.problem.kind, report.problem.seal_seq) == ("head_mismatch", head)


def test_a_forged_anchor_is_refused(sealed_log):
    anchor = audit_head_export()
    anchor["head"]["seq"] = 1
    assert audit_chain_verify(anchor=anchor).problem.kind == "head_mismatch"


def test_verify_command_exit_code_and_json(sealed_log, capsys):
    call_command("audit_verify")
    assert "OK: 10 events in" in capsys.readouterr().out
    tamper("DELETE FROM audit_auditevent WHERE id = %s", [sealed_log[5]])
    with pytest.raises(SystemExit) as exit_info:
        call_command("audit_verify", "--json")
    assert exit_info.value.code == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    assert report["problem"]["event_id"] == sealed_log[5]
    assert report["problem"]["kind"] == "missing"


def test_export_head_command_prints_a_signed_head(sealed_log, capsys, tmp_path):
    call_command("audit_export_head")
    exported = json.loads(capsys.readouterr().out)
    assert exported["head"]["seq"] == AuditSeal.objects.count()
    assert exported["head"]["events_sealed"] == 10
    assert exported["algorithm"] == "Ed25519" and len(exported["signature"]) == 128
    path = tmp_path / "head.json"
    path.write_text(json.dumps(exported))
    call_command("audit_verify", "--against", str(path))


def _legacy_seal(seq: int) -> None:
    """Rewrite seal ``seq`` (the head) as seals were written before Ed25519: the header in
    ``canonical_json``, an HMAC-SHA256 under AUDIT_SIGNING_KEY, scheme 1."""
    import hashlib

    from audit import signing
    from audit.sealing import seal_header

    seal = AuditSeal.objects.get(seq=seq)
    seal.scheme = AuditSeal.Scheme.LEGACY_HMAC
    seal.chain_hash = hashlib.sha256(seal_header(seal)).hexdigest()
    seal.key_id = signing.legacy_key_id()
    seal.signature = signing.legacy_sign(seal.chain_hash.encode("ascii"))
    tamper(
        "UPDATE audit_auditseal SET scheme = 1, chain_hash = %s, key_id = %s, signature = %s "
        "WHERE seq = %s",
        [seal.chain_hash, seal.key_id, seal.signature, seq],
    )


def test_seals_of_the_older_hmac_scheme_keep_verifying_under_the_new_chain(sealed_log):
    head = AuditSeal.objects.count()
    _legacy_seal(head)
    assert audit_chain_verify().ok
    record(3)
    [new] = seal_everything()
    assert new.scheme == AuditSeal.Scheme.ED25519_JCS and len(new.signature) == 128
    assert new.prev_hash == AuditSeal.objects.get(seq=head).chain_hash
    report = audit_chain_verify()
    assert report.ok and report.events_verified == 13, report.problem
    tamper("UPDATE audit_auditseal SET signature = %s WHERE seq = %s", ["0" * 64, head])
    report = audit_chain_verify()
    assert (report.problem.kind, report.problem.seal_seq) == ("seal_invalid", head)


def test_key_rotation_keeps_old_seals_verifying_and_an_unknown_key_is_named(sealed_log):
    import base64
    import os

    from django.test import override_settings

    from audit import signing

    old = signing.key_ring()
    old_seed = base64.b64encode(
        old.active.private_bytes_raw()  # the key the fixture's seals were signed with
    ).decode()
    new_seed = base64.b64encode(os.urandom(32)).decode()
    old_public = base64.b64encode(signing.public_raw(old.active.public_key())).decode()
    with override_settings(AUDIT_SIGNING_KEYS=new_seed, AUDIT_PUBLIC_KEYS=old_public):
        assert signing.key_id() != old.active_id
        assert {k["key_id"]: k["active"] for k in signing.public_keys()} == {
            signing.key_id(): True,
            old.active_id: False,
        }
        record(2)
        [new] = seal_everything()
        assert new.key_id == signing.key_id()
        assert audit_chain_verify().ok
    with override_settings(AUDIT_SIGNING_KEYS=new_seed):  # the old public key forgotten
        report = audit_chain_verify()
        assert report.problem.kind == "seal_invalid"
        assert f"key {old.active_id}" in report.problem.detail
    with override_settings(AUDIT_SIGNING_KEYS=f"{old_seed},{new_seed}"):
        assert audit_chain_verify().ok
