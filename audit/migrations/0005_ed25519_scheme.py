"""Seals record their signing scheme (Ed25519 from now on); wider signature and content hash.

Every statement here leaves the rows untouched (a fast column default, wider varchars), so the
append-only triggers never fire: the seals written before keep scheme 1 (HMAC) and verify as
they always did.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("audit", "0004_disputes")]

    operations = [
        migrations.AddField(
            model_name="auditseal",
            name="scheme",
            field=models.PositiveSmallIntegerField(
                choices=[(1, "Legacy Hmac"), (2, "Ed25519 Jcs")], default=1
            ),
            preserve_default=False,
        ),
        migrations.AlterField(
            model_name="auditseal",
            name="signature",
            field=models.CharField(max_length=128),
        ),
        migrations.AlterField(
            model_name="auditevent",
            name="content_hash",
            field=models.CharField(max_length=80),
        ),
    ]
