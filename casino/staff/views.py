"""The staff login: password (Django's admin form, behind the lockout), then the second factor
(a TOTP or backup code, or a remembered device), or the enrolment of a first TOTP device.

Django's ``login()`` runs only once both factors passed: until then the session holds a
pending login (user, backend, when), valid for ``PENDING_SECONDS``.
"""

from __future__ import annotations

import time

import django_otp
import segno
from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import get_user_model
from django.contrib.auth import login as auth_login
from django.contrib.auth.views import LoginView
from django.http import HttpResponseRedirect
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django_otp.plugins.otp_totp.models import TOTPDevice

from audit.context import client_of
from casino.actors import Actor
from casino.staff import events, mfa
from casino.staff.lockout import (
    PENDING_SESSION_KEY,
    is_locked_out,
    lockout_response,
    mfa_failure_record,
)
from casino.staff.sessions import session_start

PENDING_SECONDS = 300


class StaffLoginView(LoginView):
    """The admin's login form; a locked-out username is refused before its password is
    checked, and a right password leads to the second factor instead of a session."""

    authentication_form = AdminAuthenticationForm
    template_name = "admin/login.html"

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        if username and is_locked_out(request, username):
            return lockout_response(request, username)
        return super().post(request, *args, **kwargs)

    def form_valid(self, form):
        user = form.get_user()
        target = self.get_redirect_url() or reverse("admin:index")
        device = mfa.remembered_device(self.request, user=user)
        if device is not None:
            return login_complete(
                self.request,
                user=user,
                backend=user.backend,
                device=device,
                method="remembered",
                target=target,
            )
        self.request.session[PENDING_SESSION_KEY] = {
            "user_id": user.pk,
            "username": user.get_username(),
            "backend": user.backend,
            "at": time.time(),
            "next": target,
        }
        name = "staff_mfa_verify" if mfa.mfa_enrolled(user) else "staff_mfa_enrol"
        return HttpResponseRedirect(reverse(f"admin:{name}"))


def login_complete(request, *, user, backend, device, method, target, remember=False):
    """Both factors passed: the session becomes a logged-in, OTP-verified staff session."""
    request.session.pop(PENDING_SESSION_KEY, None)
    auth_login(request, user, backend=backend)
    django_otp.login(request, device)
    session_start(request)
    events.mfa_verified(
        actor=Actor.for_user(user, request_id=getattr(request, "request_id", "")),
        method=method,
        device=device.persistent_id,
        client=client_of(request),
    )
    if not url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        target = reverse("admin:index")
    response = HttpResponseRedirect(target)
    totp = device if isinstance(device, TOTPDevice) else mfa.totp_device_of(user)
    if remember and totp is not None:
        mfa.remember_cookie_set(response, user=user, device=totp)
    return response


def _pending(request):
    """(pending login, its user) or (None, None) when there is none or it is too old."""
    pending = request.session.get(PENDING_SESSION_KEY)
    if not pending or time.time() - pending.get("at", 0) > PENDING_SECONDS:
        request.session.pop(PENDING_SESSION_KEY, None)
        return None, None
    user = get_user_model().objects.filter(pk=pending["user_id"], is_active=True).first()
    return (pending, user) if user is not None else (None, None)


def _back_to_login(request, text: str):
    messages.error(request, text)
    return redirect("admin:login")


class TokenForm(forms.Form):
    token = forms.CharField(
        label="Code",
        max_length=32,
        widget=forms.TextInput(
            attrs={"autocomplete": "one-time-code", "autofocus": True, "inputmode": "numeric"}
        ),
    )
    remember = forms.BooleanField(required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        days = settings.STAFF_MFA_REMEMBER_DAYS
        if days > 0:
            self.fields["remember"].label = f"Remember this device for {days} days"
        else:
            del self.fields["remember"]


def _token_step(request, *, site, template: str, extra: dict, enrolling=None):
    """Shared by verification and enrolment: check the posted code against the pending
    user's devices (or the one being enrolled); a wrong code counts as a failed login."""
    pending, user = _pending(request)
    if user is None:
        return None, None, _back_to_login(request, "Your login expired: please log in again.")
    if is_locked_out(request, user.get_username()):
        request.session.pop(PENDING_SESSION_KEY, None)
        return None, None, lockout_response(request, user.get_username())
    form = TokenForm(request.POST if request.method == "POST" else None)
    verified = None
    if form.is_valid():
        check = mfa.token_verify(user=user, token=form.cleaned_data["token"], enrolling=enrolling)
        verified = check.device
        if verified is None:
            mfa_failure_record(request, user.get_username())
            if check.wait_seconds:
                form.add_error(None, f"Too many wrong codes: wait {check.wait_seconds} s.")
            else:
                form.add_error("token", "That code is not valid.")
            if getattr(request, "axes_locked_out", False):
                request.session.pop(PENDING_SESSION_KEY, None)
    if verified is not None:
        return (pending, user, verified), form, None
    context = {
        **site.each_context(request),
        "title": "Second factor",
        "subtitle": None,
        "form": form,
        "username": user.get_username(),
        **extra,
    }
    return None, form, TemplateResponse(request, template, context)


def mfa_verify(request, *, site):
    pending, user = _pending(request)
    if user is not None and not mfa.mfa_enrolled(user):
        return redirect("admin:staff_mfa_enrol")
    done, form, response = _token_step(
        request, site=site, template="staff/mfa_verify.html", extra={}
    )
    if response is not None:
        return response
    pending, user, device = done
    return login_complete(
        request,
        user=user,
        backend=pending["backend"],
        device=device,
        method=mfa.method_of(device),
        target=pending["next"],
        remember=form.cleaned_data.get("remember", False),
    )


def mfa_enrol(request, *, site):
    """First TOTP device of a user who passed the password step: the secret is shown (QR code
    and otpauth URI) until its first code confirms it; backup codes are then shown once."""
    pending, user = _pending(request)
    if user is None:
        return _back_to_login(request, "Your login expired: please log in again.")
    if mfa.mfa_enrolled(user):
        return redirect("admin:staff_mfa_verify")
    device = TOTPDevice.objects.filter(
        pk=pending.get("enrol_device_id"), user=user, confirmed=False
    ).first()
    if device is None:
        device = mfa.totp_enrolment_start(user=user)
        pending["enrol_device_id"] = device.pk
        request.session[PENDING_SESSION_KEY] = pending
    uri = device.config_url
    extra = {
        "otpauth_uri": uri,
        "secret": mfa.totp_secret(device),
        "qr_svg": segno.make(uri, error="m").svg_inline(scale=5, light="#fff"),
    }
    done, form, response = _token_step(
        request, site=site, template="staff/mfa_enrol.html", extra=extra, enrolling=device
    )
    if response is not None:
        return response
    pending, user, device = done
    codes = mfa.totp_enrolment_confirm(device=device)
    events.mfa_enrolled(
        actor=Actor.for_user(user, request_id=getattr(request, "request_id", "")),
        device=device.persistent_id,
        backup_codes=len(codes),
        client=client_of(request),
    )
    redirect_response = login_complete(
        request,
        user=user,
        backend=pending["backend"],
        device=device,
        method="totp",
        target=pending["next"],
        remember=form.cleaned_data.get("remember", False),
    )
    response = TemplateResponse(
        request,
        "staff/mfa_enrolled.html",
        {
            **site.each_context(request),
            "title": "Backup codes",
            "subtitle": None,
            "codes": codes,
            "next": redirect_response["Location"],
        },
    )
    for cookie in redirect_response.cookies.values():
        response.cookies[cookie.key] = cookie
    return response
