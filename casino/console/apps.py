from django.apps import AppConfig


class ConsoleConfig(AppConfig):
    name = "casino.console"
    label = "console"
    verbose_name = "Pit console"

    def ready(self):
        from django.contrib import admin

        admin.site.site_header = "Pit console"
        admin.site.site_title = "Pit console"
        admin.site.index_title = "Casino floor"
