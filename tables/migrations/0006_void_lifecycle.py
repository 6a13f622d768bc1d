"""Void lifecycle (issue 20 / 15): a void request holds its round until it is approved,
rejected, cancelled or expires; one open request per round (a new one after a closed one)."""

import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tables', '0005_settlement_storage'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(model_name='voidrequest', name='void_one_request_per_round'),
        migrations.RemoveConstraint(model_name='voidrequest', name='void_two_people'),
        migrations.RenameField(model_name='voidrequest', old_name='approved_by', new_name='decided_by'),
        migrations.RenameField(model_name='voidrequest', old_name='approved_at', new_name='decided_at'),
        migrations.AddField(
            model_name='voidrequest',
            name='decision_note',
            field=models.CharField(blank=True, default='', max_length=500),
        ),
        # Requests made before expiry existed expire at the first sweep (issue 15: they stayed
        # "requested" for ever).
        migrations.AddField(
            model_name='voidrequest',
            name='expires_at',
            field=models.DateTimeField(default=django.utils.timezone.now),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='voidrequest',
            name='betting_left',
            field=models.DurationField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='voidrequest',
            name='status',
            field=models.CharField(choices=[('requested', 'Requested'), ('approved', 'Approved'), ('rejected', 'Rejected'), ('cancelled', 'Cancelled'), ('expired', 'Expired')], default='requested', max_length=10),
        ),
        migrations.AlterField(
            model_name='voidrequest',
            name='requested_at',
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AddField(
            model_name='round',
            name='held_since',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddConstraint(
            model_name='voidrequest',
            constraint=models.UniqueConstraint(condition=models.Q(('status', 'requested')), fields=('round',), name='void_one_open_request_per_round'),
        ),
        migrations.AddConstraint(
            model_name='voidrequest',
            constraint=models.CheckConstraint(condition=models.Q(models.Q(('status__in', ['approved', 'rejected']), _negated=True), models.Q(('decided_by', models.F('requested_by')), _negated=True), _connector='OR'), name='void_two_people'),
        ),
        migrations.AlterModelOptions(
            name='table',
            options={'ordering': ['code'], 'permissions': [('operate_table', 'Can open, pause and close tables, set limits and dealers'), ('deal_round', 'Can run rounds as the dealer (betting, cards, dealer decisions)'), ('place_bet', 'Can place bets for players'), ('play_round', "Can make players' decisions"), ('request_void', 'Can request a round void'), ('approve_void', 'Can approve a round void'), ('reject_void', "Can reject another staff member's void request"), ('cancel_void', 'Can cancel any void request (the requester cancels their own)')]},
        ),
    ]
