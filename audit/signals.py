"""Authentication and authorisation changes, recorded in the transaction that makes them.

Logins, logouts and failed logins come from Django's auth signals; group and permission changes
of users and groups from ``m2m_changed`` (either side of the relation, clears included); grants
of superuser, staff or active status from saves of the user.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.auth.signals import user_logged_in, user_logged_out, user_login_failed
from django.db.models.signals import m2m_changed, post_save, pre_save
from django.dispatch import receiver

from audit import events
from audit.context import client_of, current_actor
from casino.actors import Actor

User = get_user_model()
FLAGS = ("is_superuser", "is_staff", "is_active")


@receiver(user_logged_in, dispatch_uid="audit.login")
def _login(sender, request, user, **kwargs):
    actor = Actor.for_user(user, request_id=getattr(request, "request_id", ""))
    events.login(actor=actor, client=client_of(request))


@receiver(user_logged_out, dispatch_uid="audit.logout")
def _logout(sender, request, user, **kwargs):
    if user is None:
        return
    actor = Actor.for_user(user, request_id=getattr(request, "request_id", ""))
    events.logout(actor=actor, client=client_of(request))


@receiver(user_login_failed, dispatch_uid="audit.login_failed")
def _login_failed(sender, credentials, request=None, **kwargs):
    username = str(credentials.get(User.USERNAME_FIELD, credentials.get("username", "")))[:150]
    actor = Actor(
        kind="anonymous",
        id=None,
        label=username or "anonymous",
        request_id=getattr(request, "request_id", ""),
    )
    events.login_failed(
        actor=actor,
        username=username,
        client=client_of(request),
        stage=str(credentials.get("stage", "login")),
    )


def _label(obj) -> str:
    if isinstance(obj, Permission):
        return f"{obj.content_type.app_label}.{obj.codename}"
    if isinstance(obj, Group):
        return obj.name
    return obj.get_username()


def _subject(obj) -> dict:
    if isinstance(obj, Group):
        return {"group_id": obj.pk, "group": obj.name}
    if isinstance(obj, Permission):
        return {"permission": _label(obj)}
    return {"user_id": obj.pk, "username": obj.get_username()}


RELATIONS = {
    # through model: (event name, item model, accessor on the owner, accessor on the item)
    User.groups.through: (events.USER_GROUPS_CHANGED, Group, "groups", "user_set"),
    User.user_permissions.through: (
        events.USER_PERMISSIONS_CHANGED,
        Permission,
        "user_permissions",
        "user_set",
    ),
    Group.permissions.through: (
        events.GROUP_PERMISSIONS_CHANGED,
        Permission,
        "permissions",
        "group_set",
    ),
}
ACTIONS = {"post_add": "added", "post_remove": "removed", "pre_clear": "cleared"}


@receiver(m2m_changed, dispatch_uid="audit.membership")
def _membership(sender, instance, action, reverse, model, pk_set, **kwargs):
    if sender not in RELATIONS or action not in ACTIONS:
        return
    name, item_model, owner_accessor, item_accessor = RELATIONS[sender]
    if action == "pre_clear":
        # The related set is about to vanish: name it now (post_clear only says "cleared").
        related = getattr(instance, item_accessor if reverse else owner_accessor).all()
    else:
        related = model.objects.filter(pk__in=pk_set or ())
    if item_model is Permission and not reverse:
        related = related.select_related("content_type")
    related = list(related)
    if not related:
        return
    actor = current_actor()
    # One event per owner (user or group) whose grants changed, whichever side was edited.
    if not reverse:
        owners_items = [(instance, sorted(_label(item) for item in related))]
    else:
        owners_items = [(owner, [_label(instance)]) for owner in related]
    for owner, items in owners_items:
        events.membership_changed(
            name=name, actor=actor, subject=_subject(owner), action=ACTIONS[action], items=items
        )


@receiver(pre_save, sender=User, dispatch_uid="audit.user_flags_before")
def _flags_before(sender, instance, update_fields=None, **kwargs):
    if update_fields is not None and not set(update_fields) & set(FLAGS):
        return  # e.g. the last_login update of every login
    if instance.pk is None:
        instance._audit_flags = dict.fromkeys(FLAGS, False) | {"is_active": True}
        return
    instance._audit_flags = User.objects.filter(pk=instance.pk).values(*FLAGS).first()


@receiver(post_save, sender=User, dispatch_uid="audit.user_flags_after")
def _flags_after(sender, instance, **kwargs):
    before = instance.__dict__.pop("_audit_flags", None)
    if before is None:
        return
    changes = {
        flag: [before[flag], getattr(instance, flag)]
        for flag in FLAGS
        if before[flag] != getattr(instance, flag)
    }
    if changes:
        events.user_flags_changed(
            actor=current_actor(),
            user_id=instance.pk,
            username=instance.get_username(),
            changes=changes,
        )
