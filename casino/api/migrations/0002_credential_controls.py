"""Expiry, scopes, allow-lists, rotation and last address of API keys and device tokens.

Existing credentials keep working as before: every scope, no allow-list, and an expiry one
lifetime from now (settings.API_KEY_LIFETIME_DAYS / API_DEVICE_TOKEN_LIFETIME_DAYS)."""

from datetime import timedelta

import django.contrib.postgres.fields
from django.conf import settings
from django.db import migrations, models
from django.utils import timezone

import casino.api.models


def expire_in_one_lifetime(apps, schema_editor):
    now = timezone.now()
    for name, days in [
        ("ApiKey", settings.API_KEY_LIFETIME_DAYS),
        ("DeviceToken", settings.API_DEVICE_TOKEN_LIFETIME_DAYS),
    ]:
        model = apps.get_model("api", name)
        model.objects.filter(expires_at__isnull=True).update(expires_at=now + timedelta(days=days))


def _fields():
    return [
        ("expires_at", models.DateTimeField(null=True)),
        (
            "scopes",
            django.contrib.postgres.fields.ArrayField(
                base_field=models.CharField(
                    choices=[
                        ("read", "read: GET endpoints"),
                        ("money", "money: players, wallets, deposits, withdrawals, bets, decisions"),
                        ("pit", "pit: running tables and rounds (dealer devices, pit work)"),
                    ],
                    max_length=8,
                ),
                default=casino.api.models.scopes_all,
                size=None,
            ),
        ),
        (
            "allowed_networks",
            django.contrib.postgres.fields.ArrayField(
                base_field=models.CharField(max_length=49), blank=True, default=list, size=None
            ),
        ),
        ("rotated_at", models.DateTimeField(blank=True, null=True)),
        ("previous_secret_hash", models.CharField(blank=True, default="", max_length=64)),
        ("previous_valid_until", models.DateTimeField(blank=True, null=True)),
        ("last_used_ip", models.GenericIPAddressField(blank=True, null=True)),
    ]


class Migration(migrations.Migration):
    dependencies = [("api", "0001_initial")]

    operations = [
        *[
            migrations.AddField(model_name=model, name=name, field=field)
            for model in ("apikey", "devicetoken")
            for name, field in _fields()
        ],
        migrations.RunPython(expire_in_one_lifetime, migrations.RunPython.noop),
        *[
            migrations.AlterField(
                model_name=model, name="expires_at", field=models.DateTimeField()
            )
            for model in ("apikey", "devicetoken")
        ],
    ]
