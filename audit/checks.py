from django.conf import settings
from django.core.checks import Error, register
from django.core.exceptions import ImproperlyConfigured


@register("audit")
def signing_key_configured(app_configs, **kwargs):
    if not getattr(settings, "AUDIT_SIGNING_KEYS", None):
        return [
            Error(
                "AUDIT_SIGNING_KEYS is not set.",
                hint="Set an Ed25519 key (from a secret store, not the database) so audit seals "
                "can be signed.",
                id="audit.E001",
            )
        ]
    from audit.signing import key_ring

    try:
        key_ring()
    except (ImproperlyConfigured, ValueError) as error:
        return [
            Error(f"AUDIT_SIGNING_KEYS or AUDIT_PUBLIC_KEYS is invalid: {error}", id="audit.E002")
        ]
    return []
