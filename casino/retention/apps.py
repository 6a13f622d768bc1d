from django.apps import AppConfig


class RetentionConfig(AppConfig):
    name = "casino.retention"
    label = "retention"
    verbose_name = "Retention (time-partitioned append-only tables)"
