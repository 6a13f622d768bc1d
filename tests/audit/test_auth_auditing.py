"""Logins, logouts, failed logins and every change of groups, permissions and user flags."""

import pytest
from django.contrib.auth.models import Group, Permission
from django.test import Client, RequestFactory

from audit.context import request_context
from audit.models import AuditEvent
from tests.factories import UserFactory
from tests.helpers.staff import enrolled_device, login_verified, totp_code

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"  # tests/factories.py


def events(name: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(name=name).order_by("id"))


def test_login_logout_and_failed_login_through_the_admin():
    user = UserFactory()
    device = enrolled_device(user)
    client = Client(REMOTE_ADDR="203.0.113.7", HTTP_USER_AGENT="pytest")
    client.post("/admin/login/", {"username": user.username, "password": "wrong"})
    client.post("/admin/login/", {"username": user.username, "password": PASSWORD})
    client.post("/admin/mfa/", {"token": totp_code(device)})  # the login completes here
    client.post("/admin/logout/")
    (failed,) = events("auth.login_failed")
    assert failed.actor_kind == "anonymous" and failed.payload["username"] == user.username
    assert "password" not in str(failed.payload)
    (login,) = events("auth.login")
    assert (login.actor_kind, login.actor_id) == ("user", str(user.pk))
    assert login.payload["client"] == {"ip": "203.0.113.7", "user_agent": "pytest"}
    (logout,) = events("auth.logout")
    assert logout.actor_id == str(user.pk)


def test_group_changes_are_recorded_from_either_side_and_on_clear():
    user = UserFactory()
    pit, audit = Group.objects.create(name="g-pit"), Group.objects.create(name="g-audit")
    user.groups.add(pit, audit)
    audit.user_set.remove(user)
    user.groups.clear()
    changes = [
        (e.payload["action"], e.payload["items"]) for e in events("auth.user_groups_changed")
    ]
    assert changes == [
        ("added", ["g-audit", "g-pit"]),
        ("removed", ["g-audit"]),
        ("cleared", ["g-pit"]),
    ]
    assert all(
        e.payload["subject"]["user_id"] == user.pk for e in events("auth.user_groups_changed")
    )


def test_permission_changes_of_users_and_groups_are_recorded():
    user = UserFactory()
    group = Group.objects.create(name="g-perm")
    perm = Permission.objects.get(codename="view_auditevent")
    user.user_permissions.add(perm)
    group.permissions.add(perm)
    (user_change,) = events("auth.user_permissions_changed")
    assert user_change.payload["items"] == ["audit.view_auditevent"]
    group_change = events("auth.group_permissions_changed")[-1]
    assert group_change.payload["subject"] == {"group_id": group.pk, "group": "g-perm"}


def test_a_change_made_in_a_request_is_attributed_to_its_user():
    admin, user = UserFactory(), UserFactory()
    request = RequestFactory().post("/admin/")
    request.user = admin
    with request_context(request):
        user.is_superuser = True
        user.save()
    (flags,) = [
        e for e in events("auth.user_flags_changed") if e.payload["subject"]["user_id"] == user.pk
    ][1:]  # the first is the creation as staff
    assert flags.payload["changes"] == {"is_superuser": [False, True]}
    assert (flags.actor_kind, flags.actor_id) == ("user", str(admin.pk))


def test_logins_do_not_record_flag_changes():
    user = UserFactory()
    created = events("auth.user_flags_changed")
    assert [e.payload["changes"] for e in created] == [{"is_staff": [False, True]}]
    login_verified(Client(), user)  # login() updates last_login
    assert events("auth.user_flags_changed") == created
