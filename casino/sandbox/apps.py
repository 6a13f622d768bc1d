from django.apps import AppConfig


class SandboxConfig(AppConfig):
    name = "casino.sandbox"
    label = "sandbox"
    verbose_name = "Sandbox"
