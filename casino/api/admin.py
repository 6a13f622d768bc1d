from django import forms
from django.contrib import admin
from django.contrib.admin import widgets
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers

from casino.actors import Actor
from casino.api import services
from casino.api.credentials import networks_normalize
from casino.api.inputs import staff_user
from casino.api.models import ApiKey, DeviceToken, Scope
from casino.console.admin import ConsoleModelAdmin, confirmed_action
from casino.errors import ValidationFailed


class NetworksField(forms.CharField):
    """An allow-list as text, one CIDR per line (or comma-separated); cleaned to a list."""

    widget = forms.Textarea(attrs={"rows": 3})

    def prepare_value(self, value):
        return "\n".join(value) if isinstance(value, list) else value

    def to_python(self, value):
        try:
            return networks_normalize(str(value or "").replace(",", "\n").splitlines())
        except ValueError as exc:
            raise forms.ValidationError(str(exc)) from None


class CredentialForm(forms.ModelForm):
    scopes = forms.MultipleChoiceField(choices=Scope.choices, widget=forms.CheckboxSelectMultiple)
    allowed_networks = NetworksField(
        required=False,
        help_text="One CIDR per line, e.g. 203.0.113.0/24; empty: any address. Checked against "
        "the address Django sees (REMOTE_ADDR).",
    )
    expires_at = forms.SplitDateTimeField(
        required=False,
        widget=widgets.AdminSplitDateTime,
        help_text="Empty: the longest lifetime allowed from when the secret was issued.",
    )

    def clean(self):
        """The service's own checks (expiry within the lifetime, ...) as form errors."""
        data = super().clean()
        if self.errors:
            return data
        instance = self.instance
        try:
            services.credential_terms(
                model=type(instance),
                minted_at=(instance.rotated_at or instance.created_at) or timezone.now(),
                current_expiry=instance.expires_at,
                scopes=data["scopes"],
                allowed_networks=data["allowed_networks"],
                expires_at=data["expires_at"],
            )
        except ValidationFailed as exc:
            for field, errors in exc.errors.items():
                self.add_error(field, errors)
        return data


class CredentialAdmin(ConsoleModelAdmin):
    """Credentials are issued and rotated through the services (secret shown once); only their
    scopes, allow-list and expiry change afterwards."""

    form = CredentialForm
    readonly_fields = (
        "prefix",
        "created_at",
        "created_by",
        "rotated_at",
        "previous_valid_until",
        "revoked_at",
        "last_used_at",
        "last_used_ip",
    )
    terms = ("scopes", "allowed_networks", "expires_at")
    identity: tuple[str, ...] = ()  # fixed once issued
    actions = ["rotate", "revoke"]
    kind = ""
    default_scopes: tuple[str, ...] = ()

    def get_fields(self, request, obj=None):
        return (*self.identity, *self.terms, *self.readonly_fields)

    def get_readonly_fields(self, request, obj=None):
        return self.readonly_fields if obj is None else (*self.identity, *self.readonly_fields)

    def get_changeform_initial_data(self, request):
        return {"scopes": list(self.default_scopes), **super().get_changeform_initial_data(request)}

    def has_change_permission(self, request, obj=None):
        return super().has_change_permission(request, obj) and (
            obj is None or obj.revoked_at is None
        )

    def has_delete_permission(self, request, obj=None):
        return False

    @admin.display(description="scopes")
    def scope_list(self, obj) -> str:
        return ", ".join(obj.scopes)

    def save_model(self, request, obj, form, change):
        if change:
            self.change_terms(request, obj, form.cleaned_data)
            return
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

    @admin.action(
        description="Rotate the selected credentials (the old secret works for the overlap)",
        permissions=["change"],
    )
    def rotate(self, request, queryset):
        rotated = []

        def perform(*, obj, actor, reason):
            rotated.append(self.rotate_one(obj=obj, actor=actor, reason=reason))

        page = confirmed_action(
            modeladmin=self,
            request=request,
            queryset=queryset,
            title=f"Rotate {self.kind}",
            action_name="rotate",
            perform=perform,
        )
        if page is not None or not rotated:
            return page
        # The new secrets on this page only (never cached: the admin's views are never_cache),
        # never in a message (a cookie) or a URL.
        return TemplateResponse(
            request,
            "console/credential_secrets.html",
            {
                **self.admin_site.each_context(request),
                "title": f"New {self.kind} secrets",
                "rotated": rotated,
                "opts": self.model._meta,
            },
        )


@admin.register(ApiKey)
class ApiKeyAdmin(CredentialAdmin):
    kind = "API key"
    list_display = (
        "label",
        "prefix",
        "operator",
        "scope_list",
        "created_at",
        "expires_at",
        "last_used_at",
        "last_used_ip",
        "revoked_at",
    )
    list_filter = ("operator", "revoked_at")
    identity = ("operator", "label")
    default_scopes = services.API_KEY_SCOPES

    def issue(self, request, data):
        return services.api_key_issue(
            actor=Actor.from_request(request),
            operator=data["operator"],
            label=data["label"],
            scopes=data["scopes"],
            allowed_networks=data["allowed_networks"],
            expires_at=data["expires_at"],
            created_by=staff_user(request),
        )

    def change_terms(self, request, obj, data):
        services.api_key_change(
            actor=Actor.from_request(request),
            api_key=obj,
            scopes=data["scopes"],
            allowed_networks=data["allowed_networks"],
            expires_at=data["expires_at"],
        )

    def rotate_one(self, *, obj, actor, reason):
        return services.api_key_rotate(actor=actor, api_key=obj, reason=reason)

    def revoke_one(self, *, obj, actor, reason):
        services.api_key_revoke(actor=actor, api_key=obj, reason=reason)


@admin.register(DeviceToken)
class DeviceTokenAdmin(CredentialAdmin):
    kind = "device token"
    list_display = (
        "device_id",
        "table",
        "prefix",
        "scope_list",
        "created_at",
        "expires_at",
        "last_used_at",
        "last_used_ip",
        "revoked_at",
    )
    list_filter = ("table", "revoked_at")
    identity = ("table", "device_id", "label")
    default_scopes = services.DEVICE_TOKEN_SCOPES

    def issue(self, request, data):
        return services.device_token_issue(
            actor=Actor.from_request(request),
            table=data["table"],
            device_id=data["device_id"],
            label=data["label"],
            scopes=data["scopes"],
            allowed_networks=data["allowed_networks"],
            expires_at=data["expires_at"],
            created_by=staff_user(request),
        )

    def change_terms(self, request, obj, data):
        services.device_token_change(
            actor=Actor.from_request(request),
            token=obj,
            scopes=data["scopes"],
            allowed_networks=data["allowed_networks"],
            expires_at=data["expires_at"],
        )

    def rotate_one(self, *, obj, actor, reason):
        return services.device_token_rotate(actor=actor, token=obj, reason=reason)

    def revoke_one(self, *, obj, actor, reason):
        services.device_token_revoke(actor=actor, token=obj, reason=reason)
