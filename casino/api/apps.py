from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "casino.api"
    label = "api"
    verbose_name = "API platform"

    def ready(self):
        from django.db.models.signals import post_migrate

        from casino.api.roles import roles_sync_after_migrate

        post_migrate.connect(roles_sync_after_migrate, sender=self)
        post_migrate.connect(cache_table_create, sender=self)


def cache_table_create(using, **kwargs):
    """The database cache's table (settings CACHES, when CACHE_URL is unset): every `migrate`
    creates it if it is missing, so the embedded setup and the tests need no extra step."""
    from django.core.management import call_command

    call_command("createcachetable", database=using, verbosity=0)
