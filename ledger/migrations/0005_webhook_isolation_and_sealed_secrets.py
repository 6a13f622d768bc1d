import django.db.models.deletion
from django.db import migrations, models


def secrets_seal(apps, schema_editor):
    """Encrypt every existing signing secret (ledger/sealed.py) before the plaintext column
    goes."""
    from ledger.sealed import reseal

    Operator = apps.get_model("ledger", "Operator")
    for operator in Operator.objects.exclude(webhook_secret="").only("webhook_secret"):
        operator.webhook_secret_sealed = reseal(operator.webhook_secret)
        operator.save(update_fields=["webhook_secret_sealed"])


def secrets_unseal(apps, schema_editor):
    from ledger.sealed import unseal

    Operator = apps.get_model("ledger", "Operator")
    for operator in Operator.objects.exclude(webhook_secret_sealed=""):
        operator.webhook_secret = unseal(operator.webhook_secret_sealed)
        operator.save(update_fields=["webhook_secret"])


class Migration(migrations.Migration):
    dependencies = [
        ("ledger", "0004_json_text_documents"),
    ]

    operations = [
        migrations.CreateModel(
            name="WebhookCircuit",
            fields=[
                (
                    "operator",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="webhook_circuit",
                        serialize=False,
                        to="ledger.operator",
                    ),
                ),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("closed", "Closed"),
                            ("open", "Open"),
                            ("half_open", "Half Open"),
                        ],
                        default="closed",
                        max_length=10,
                    ),
                ),
                ("consecutive_failures", models.PositiveIntegerField(default=0)),
                ("open_until", models.DateTimeField(blank=True, null=True)),
                ("probe_until", models.DateTimeField(blank=True, null=True)),
                ("changed_at", models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.AlterModelOptions(
            name="operator",
            options={
                "ordering": ["code"],
                "permissions": [
                    (
                        "manage_own_webhook",
                        "Can set its own operator's webhook URL (rotates the secret)",
                    )
                ],
            },
        ),
        migrations.AddField(
            model_name="operator",
            name="webhook_secret_sealed",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.RunPython(secrets_seal, secrets_unseal),
        migrations.RemoveField(
            model_name="operator",
            name="webhook_secret",
        ),
        migrations.AddField(
            model_name="operatorevent",
            name="claimed_until",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="operatorevent",
            name="delivery",
            field=models.CharField(
                choices=[
                    ("pending", "Pending"),
                    ("delivered", "Delivered"),
                    ("failed", "Failed"),
                    ("not_configured", "Not Configured"),
                    ("feed_only", "Feed Only"),
                ],
                default="pending",
                max_length=16,
            ),
        ),
        migrations.AddIndex(
            model_name="operatorevent",
            index=models.Index(
                condition=models.Q(("claimed_until__isnull", False)),
                fields=["operator"],
                name="operator_event_claimed_idx",
            ),
        ),
    ]
