from django.contrib import admin
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.cache import add_never_cache_headers

from casino.actors import Actor
from casino.api import services
from casino.api.inputs import staff_user
from casino.api.models import ApiKey, DeviceToken
from casino.console.admin import ConsoleModelAdmin, confirmed_action


class CredentialAdmin(ConsoleModelAdmin):
    """Credentials are issued through the service (secret shown once) and never edited."""

    readonly_fields = ("prefix", "created_at", "created_by", "revoked_at", "last_used_at")
    exclude = ("secret_hash",)
    actions = ["revoke"]
    kind = ""

    def has_change_permission(self, request, obj=None):
        return obj is None and super().has_change_permission(request, obj)

    def has_delete_permission(self, request, obj=None):
        return False

    def save_model(self, request, obj, form, change):
        credential, raw = self.issue(request, form.cleaned_data)
        obj.pk = credential.pk
        obj.prefix = credential.prefix
        obj.issued_secret = raw  # in memory only, for response_add's page

    def response_add(self, request, obj, post_url_continue=None):
        """The secret, shown once on this page: never in a message (a cookie), the session or
        a redirect, and the page itself is never stored (Cache-Control: no-store)."""
        opts = self.model._meta
        context = {
            **self.admin_site.each_context(request),
            "title": f"New {self.kind} issued",
            "opts": opts,
            "kind": self.kind,
            "credential": obj,
            "secret": obj.issued_secret,
            "change_url": reverse(
                f"admin:{opts.app_label}_{opts.model_name}_change",
                args=[obj.pk],
                current_app=self.admin_site.name,
            ),
        }
        response = TemplateResponse(request, "console/credential_issued.html", context)
        add_never_cache_headers(response)
        return response

    @admin.action(description="Revoke the selected credentials", permissions=["change"])
    def revoke(self, request, queryset):
        return confirmed_action(
            modeladmin=self,
            request=request,
            queryset=queryset,
            title=f"Revoke {self.kind}",
            action_name="revoke",
            perform=self.revoke_one,
        )


@admin.register(ApiKey)
class ApiKeyAdmin(CredentialAdmin):
    kind = "API key"
    list_display = ("label", "prefix", "operator", "created_at", "last_used_at", "revoked_at")
    list_filter = ("operator", "revoked_at")
    fields = ("operator", "label", *CredentialAdmin.readonly_fields)

    def issue(self, request, data):
        return services.api_key_issue(
            actor=Actor.from_request(request),
            operator=data["operator"],
            label=data["label"],
            created_by=staff_user(request),
        )

    def revoke_one(self, *, obj, actor, reason):
        services.api_key_revoke(actor=actor, api_key=obj, reason=reason)


@admin.register(DeviceToken)
class DeviceTokenAdmin(CredentialAdmin):
    kind = "device token"
    list_display = ("device_id", "table", "prefix", "created_at", "last_used_at", "revoked_at")
    list_filter = ("table", "revoked_at")
    fields = ("table", "device_id", "label", *CredentialAdmin.readonly_fields)

    def issue(self, request, data):
        return services.device_token_issue(
            actor=Actor.from_request(request),
            table=data["table"],
            device_id=data["device_id"],
            label=data["label"],
            created_by=staff_user(request),
        )

    def revoke_one(self, *, obj, actor, reason):
        services.device_token_revoke(actor=actor, token=obj, reason=reason)
