from django.conf import settings
from django.core.checks import Error, register


@register("audit")
def signing_key_configured(app_configs, **kwargs):
    if getattr(settings, "AUDIT_SIGNING_KEY", None):
        return []
    return [
        Error(
            "AUDIT_SIGNING_KEY is not set.",
            hint="Set it (from a secret store, not the database) so audit seals can be signed.",
            id="audit.E001",
        )
    ]
