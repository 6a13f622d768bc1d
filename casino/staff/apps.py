from django.apps import AppConfig
from django.contrib.admin.apps import AdminConfig


class ConsoleAdminConfig(AdminConfig):
    """Django's admin with the console's site: MFA-verified staff only (casino/staff/site.py)."""

    default_site = "casino.staff.site.ConsoleAdminSite"


class StaffConfig(AppConfig):
    """Staff accounts: MFA (TOTP), login lockout, session lifetime, security alerts' inputs."""

    name = "casino.staff"
    label = "staff"
    verbose_name = "Staff accounts"

    def ready(self):
        from casino.staff import signals  # noqa: F401
