from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "casino.api"
    label = "api"
    verbose_name = "API platform"

    def ready(self):
        from django.db.models.signals import post_migrate

        from casino.api.roles import roles_sync_after_migrate

        post_migrate.connect(roles_sync_after_migrate, sender=self)
