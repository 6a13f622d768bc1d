"""Webhook targets: the egress allow-list at the API (staff and the operator's own key) and at
delivery time, redirects never followed, and secrets encrypted at rest."""

import base64
import socket

import pytest
from cryptography.fernet import Fernet
from django.db import connection

from audit.models import AuditEvent
from casino.api import roles
from ledger import egress, sealed, services
from ledger.models import Operator, OperatorEvent, WebhookAttempt
from ledger.webhooks import operator_event_deliver
from tests.conftest import staff_client
from tests.factories import OperatorFactory
from tests.ledger.conftest import ACTOR
from tests.ledger.receivers import Receiver

SSRF_TARGETS = [
    "http://169.254.169.254/latest/meta-data/",  # cloud metadata (link-local)
    "http://127.0.0.1:5432/",  # the database, on loopback
    "ftp://hooks.example.com/x",  # not http(s)
    "file:///etc/passwd",
    "gopher://127.0.0.1:6379/_INFO",
    "http://localhost:8000/hook",  # a name for loopback
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",  # loopback as an IPv4-mapped IPv6 address
    "http://10.0.0.5/hook",  # private
    "http://192.168.1.1/hook",
    "http://100.64.0.1/hook",  # carrier-grade NAT
    "http://0.0.0.0:8000/hook",  # unspecified
    "http://224.0.0.1/hook",  # multicast
    "http://240.0.0.1/hook",  # reserved
    "http://user:pass@93.184.215.14/hook",  # credentials in the URL
    "hooks.example.com/no-scheme",
    # IPv6 addresses carrying a private or loopback IPv4 address, which Python calls global.
    "http://[2002:7f00:1::1]/",  # 6to4 of 127.0.0.1
    "http://[2002:a00:1::1]/",  # 6to4 of 10.0.0.1
    "http://[2002:c0a8:101::1]/",  # 6to4 of 192.168.1.1
    "http://[2001:0:4136:e378:8000:edcb:80ff:fffe]/",  # Teredo, client 127.0.0.1
    "http://[2001:0:a00:1:8000:edcb:f7f7:f7f7]/",  # Teredo, server 10.0.0.1
    "http://[64:ff9b::7f00:1]/",  # NAT64 of 127.0.0.1
    "http://[fec0::1]/",  # site-local
    # IANA special-purpose blocks that are not globally reachable, which Python calls global.
    "http://192.0.0.8/",
    "http://192.88.99.1/",
    "http://[3fff::1]/",
    "http://8.8.8.8:0/",  # port 0 (urlsplit's port; it used to become the default port)
    # Invisible and control characters anywhere in the URL.
    "http://8.8.8.8/\u00fc\u202e",  # right-to-left override
    "http://8.8.8.8/a\u007fb",  # DEL
    "http://8.8.8.8/\u00a0x",  # no-break space
    "http://8.8.8.8/x\u00a0",  # not trimmed away either
    " http://8.8.8.8/x",
    "http://8.8.8.8/\u200bx",  # zero-width space
    "http://8.8.8.8/\u2028x",  # line separator
    "http://8.8.8.8/\ue000x",  # private use
    "http://8.8.8.8/\U000e0041x",  # tag character (format)
    "http://8.8.\u2008.8/x",  # punctuation space in the host
]
# Public targets, some in the same forms as refused ones above.
PUBLIC_TARGETS = [
    "https://93.184.215.14/hooks/casino",
    "http://8.8.8.8:8080/h?a=1",
    "http://[2002:808:808::1]/",  # 6to4 of 8.8.8.8
    "http://[::ffff:8.8.8.8]/",
    "http://[2606:4700:4700::1111]/",
    "http://8.8.8.8/caf\u00e9",  # a letter outside ASCII is not invisible
]


def _problem_fields(response) -> set[str]:
    return {error["field"] for error in response.json().get("errors", [])}


@pytest.mark.django_db
@pytest.mark.parametrize("url", SSRF_TARGETS)
def test_the_operator_cannot_point_its_webhook_at_an_internal_target(url, client_for, operator):
    before = AuditEvent.objects.count()
    response = client_for(roles.OPERATOR_INTEGRATION).put(
        "/api/v1/operator/webhook/", {"webhook_url": url}, format="json"
    )
    assert response.status_code == 400, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    assert "webhook_url" in _problem_fields(response)
    operator.refresh_from_db()
    assert operator.webhook_url == "" and operator.webhook_secret_sealed == ""
    assert AuditEvent.objects.count() == before  # nothing written


@pytest.mark.django_db
@pytest.mark.parametrize("url", SSRF_TARGETS)
def test_staff_cannot_point_an_operators_webhook_at_an_internal_target(url, operator):
    response = staff_client(roles.FLOOR_SUPERVISOR).post(
        f"/api/v1/operators/{operator.pk}/webhook/", {"url": url}, format="json"
    )
    assert response.status_code == 400, response.content
    # This endpoint's field is `url`: the problem names it, not the operator endpoint's.
    body = response.json()
    assert _problem_fields(response) == {"url"} and body["param"] == "url"
    assert body["detail"].startswith("url: ")
    assert Operator.objects.get(pk=operator.pk).webhook_url == ""


@pytest.mark.django_db
def test_the_operator_endpoint_names_its_own_field(client_for, operator):
    response = client_for(roles.OPERATOR_INTEGRATION).put(
        "/api/v1/operator/webhook/", {"webhook_url": "http://[fec0::1]/"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert _problem_fields(response) == {"webhook_url"}
    assert response.json()["param"] == "webhook_url"


@pytest.mark.django_db
@pytest.mark.parametrize("url", PUBLIC_TARGETS)
def test_public_targets_are_accepted_in_every_form(url, client_for, operator):
    response = client_for(roles.OPERATOR_INTEGRATION).put(
        "/api/v1/operator/webhook/", {"webhook_url": url}, format="json"
    )
    assert response.status_code == 200, response.content
    assert Operator.objects.get(pk=operator.pk).webhook_url == url


@pytest.mark.django_db
def test_a_refused_character_is_named_in_the_problem(client_for, operator):
    response = client_for(roles.OPERATOR_INTEGRATION).put(
        "/api/v1/operator/webhook/", {"webhook_url": "http://8.8.8.8/\u00fc\u202e"}, format="json"
    )
    assert response.status_code == 400, response.content
    assert "U+202E" in response.json()["errors"][0]["message"]


@pytest.mark.django_db
def test_a_public_target_is_accepted_and_the_secret_shown_once_and_stored_encrypted(
    client_for, operator
):
    other = OperatorFactory()
    client = client_for(roles.OPERATOR_INTEGRATION)
    url = "https://93.184.215.14/hooks/casino"  # a public address: no DNS needed
    response = client.put("/api/v1/operator/webhook/", {"webhook_url": url}, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["operator_id"] == operator.pk and body["url"] == url
    secret = body["secret"]
    assert secret.startswith("whsec_") and len(base64.b64decode(secret[6:])) == 32
    operator.refresh_from_db()
    assert operator.webhook_url == url
    with connection.cursor() as cursor:  # at rest: not the secret, not containing it
        cursor.execute(
            "SELECT webhook_secret_sealed FROM ledger_operator WHERE id = %s", [operator.pk]
        )
        stored = cursor.fetchone()[0]
    assert secret not in stored and sealed.unseal(stored) == secret
    event = AuditEvent.objects.get(name="ledger.operator_webhook_set")
    assert event.operator_id == operator.pk and secret not in str(event.payload)
    # Reading it back shows the URL and the circuit, never the secret.
    shown = client.get("/api/v1/operator/webhook/").json()
    assert shown == {
        "operator_id": operator.pk, "url": url, "event_types": [],
        "previous_secret_until": None, "circuit": "closed",
        "consecutive_failures": 0, "open_until": None,
    }  # fmt: skip
    # Setting it again rotates the secret; the other operator is untouched.
    again = client.put("/api/v1/operator/webhook/", {"webhook_url": url}, format="json").json()
    assert again["secret"] != secret and again["previous_secret_until"] is not None
    assert Operator.objects.get(pk=other.pk).webhook_url == ""


@pytest.mark.django_db
@pytest.mark.parametrize("role", [roles.PIT_BOSS, roles.FLOOR_SUPERVISOR, roles.AUDITOR,
                                  roles.DEALER_DEVICE, "anonymous"])  # fmt: skip
def test_only_an_operators_key_sets_its_own_webhook(role, client_for):
    response = client_for(role).put(
        "/api/v1/operator/webhook/", {"webhook_url": "https://93.184.215.14/h"}, format="json"
    )
    assert response.status_code in (401, 403), response.content
    assert not Operator.objects.exclude(webhook_url="").exists()


def _event_for(operator) -> OperatorEvent:
    return OperatorEvent.objects.create(operator=operator, kind="wallet.deposit", payload={})


@pytest.mark.django_db(transaction=True)
def test_delivery_refuses_a_target_that_now_resolves_to_a_private_address(settings, operator):
    with Receiver() as receiver:
        settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
        operator, _ = services.operator_webhook_set(
            actor=ACTOR, operator=operator, url=receiver.url
        )
        # The name passed the check once; now it resolves to loopback (DNS rebinding), or
        # the allow-list changed: every delivery checks again, on the addresses of that moment.
        Operator.objects.filter(pk=operator.pk).update(
            webhook_url=receiver.url.replace("127.0.0.1", "localhost")
        )
        settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = []
        event = _event_for(operator)
        assert operator_event_deliver(event_id=event.pk).status == "retry"
    assert receiver.requests == []
    attempt = WebhookAttempt.objects.get(event=event)
    assert attempt.status_code is None
    assert attempt.error.startswith("refused: localhost resolves to 127.0.0.1")


@pytest.mark.django_db(transaction=True)
def test_delivery_refuses_a_name_that_now_resolves_to_loopback_inside_6to4(monkeypatch, operator):
    def rebound(host, port, *args, **kwargs):  # the DNS answer at send time
        return [(socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("2002:7f00:1::1", port, 0, 0))]

    monkeypatch.setattr(egress.socket, "getaddrinfo", rebound)
    Operator.objects.filter(pk=operator.pk).update(webhook_url="http://hooks.example.com/x")
    event = _event_for(operator)
    assert operator_event_deliver(event_id=event.pk).status == "retry"
    attempt = WebhookAttempt.objects.get(event=event)
    assert attempt.status_code is None
    assert attempt.error.startswith("refused: hooks.example.com resolves to 2002:7f00:1::1")


@pytest.mark.django_db(transaction=True)
def test_a_redirect_is_a_failed_attempt_and_is_not_followed(settings, operator):
    settings.LEDGER_WEBHOOK_ALLOWED_HOSTS = ["127.0.0.1"]
    # The redirect points at another endpoint (as it would at an internal one).
    with Receiver() as elsewhere, Receiver(status=302, location=elsewhere.url) as redirecting:
        operator, _ = services.operator_webhook_set(
            actor=ACTOR, operator=operator, url=redirecting.url
        )
        event = _event_for(operator)
        assert operator_event_deliver(event_id=event.pk).status == "retry"
        assert len(redirecting.requests) == 1
    assert elsewhere.requests == []
    attempt = WebhookAttempt.objects.get(event=event)
    assert attempt.status_code == 302 and "not followed" in attempt.error
    assert OperatorEvent.objects.get(pk=event.pk).delivery == "pending"


def test_secrets_re_encrypt_under_the_newest_key_and_plaintext_ones_get_encrypted(settings):
    old, new = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    settings.LEDGER_WEBHOOK_SECRET_KEYS = [old]
    under_old = sealed.seal("s3cret")
    settings.LEDGER_WEBHOOK_SECRET_KEYS = [new, old]  # rotation: the new key first
    assert sealed.unseal(under_old) == "s3cret"
    resealed = sealed.reseal(under_old)
    from_plaintext = sealed.reseal("a" * 64)  # a secret stored before encryption at rest
    settings.LEDGER_WEBHOOK_SECRET_KEYS = [new]  # the old key dropped
    assert sealed.unseal(resealed) == "s3cret"
    assert sealed.unseal(from_plaintext) == "a" * 64


def test_the_ledger_check_requires_usable_secret_keys(settings):
    assert sealed.secret_keys_configured(None) == []
    for keys in ([], ["not-a-fernet-key"]):
        settings.LEDGER_WEBHOOK_SECRET_KEYS = keys
        assert [e.id for e in sealed.secret_keys_configured(None)] == ["ledger.E001"]
