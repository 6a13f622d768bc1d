"""Second factor of staff logins: TOTP devices (django-otp), backup codes and remembered devices.

Every staff login needs a second factor: a TOTP code from the user's confirmed device, one of
their single-use backup codes, or a remembered-device cookie this browser got from an earlier
verified login. A user without a confirmed device enrols right after the password step: the
secret is shown once (QR code and otpauth URI), the first code confirms it, and backup codes
are issued then.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.utils import timezone
from django_otp import devices_for_user, user_has_device
from django_otp.models import Device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

TOTP_NAME = "authenticator"
BACKUP_NAME = "backup codes"
BACKUP_CODES = 10
TOTP_DIGITS = 6  # TOTPDevice's default, which enrolment keeps
REMEMBER_COOKIE = "staff_mfa_device"
_REMEMBER_SALT = "casino.staff.remembered-device"


def is_verified(user) -> bool:
    """Whether this request's user passed the second factor (django_otp's OTPMiddleware)."""
    check = getattr(user, "is_verified", None)
    return bool(user is not None and user.is_authenticated and check is not None and check())


def totp_device_of(user) -> TOTPDevice | None:
    return TOTPDevice.objects.filter(user=user, confirmed=True).order_by("pk").first()


def mfa_enrolled(user) -> bool:
    return user_has_device(user)


@transaction.atomic
def totp_enrolment_start(*, user) -> TOTPDevice:
    """A fresh unconfirmed TOTP device: an earlier unconfirmed one (a secret shown on a page
    nobody confirmed) is dropped, so a secret is only ever valid once confirmed."""
    TOTPDevice.objects.filter(user=user, confirmed=False).delete()
    return TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=False)


@transaction.atomic
def totp_enrolment_confirm(*, device: TOTPDevice) -> list[str]:
    """Confirm an enrolment (its first code was verified): the user's other devices go, and
    fresh backup codes are issued and returned (shown once)."""
    TOTPDevice.objects.filter(user_id=device.user_id).exclude(pk=device.pk).delete()
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    return backup_codes_issue(user=device.user)


@transaction.atomic
def backup_codes_issue(*, user, count: int = BACKUP_CODES) -> list[str]:
    """Fresh single-use backup codes; the user's earlier ones stop working."""
    StaticDevice.objects.filter(user=user).delete()
    static = StaticDevice.objects.create(user=user, name=BACKUP_NAME, confirmed=True)
    codes = [StaticToken.random_token() for _ in range(count)]
    StaticToken.objects.bulk_create(StaticToken(device=static, token=code) for code in codes)
    return codes


@dataclass(frozen=True)
class TokenCheck:
    device: Device | None
    wait_seconds: int = 0  # >0: the devices refuse to verify yet (django-otp's throttling)


def token_verify(*, user, token: str, enrolling: TOTPDevice | None = None) -> TokenCheck:
    """Check a TOTP or backup code against the user's confirmed devices (or only the device
    being enrolled), each under its row lock and django-otp's per-device throttle (a delay
    doubling after each failure)."""
    token = "".join(token.split())
    wait = 0
    with transaction.atomic():
        if enrolling is not None:
            candidates = list(TOTPDevice.objects.select_for_update().filter(pk=enrolling.pk))
        else:
            candidates = list(devices_for_user(user, for_verify=True))
        app_code = token.isdigit() and len(token) == TOTP_DIGITS
        for device in candidates:
            # A code goes to the kind of device it can be for (the app's digits or a backup
            # code), so a typo does not throttle the other kind too.
            if isinstance(device, TOTPDevice) != app_code:
                continue
            allowed, info = device.verify_is_allowed()
            if not allowed:
                locked_until = (info or {}).get("locked_until")
                if locked_until is not None:
                    wait = max(wait, int((locked_until - timezone.now()).total_seconds()) + 1)
                continue
            if token and device.verify_token(token):
                return TokenCheck(device=device)
    return TokenCheck(device=None, wait_seconds=wait)


def totp_secret(device: TOTPDevice) -> str:
    """The secret as authenticator apps take it when typed in (base32)."""
    return base64.b32encode(device.bin_key).decode()


def method_of(device: Device) -> str:
    return "backup" if isinstance(device, StaticDevice) else "totp"


# --- remembered devices ---------------------------------------------------------------------


def _key_fingerprint(device: TOTPDevice) -> str:
    # Re-enrolling (a new secret) invalidates every remembered browser of the old device.
    return hashlib.sha256(f"{device.persistent_id}:{device.key}".encode()).hexdigest()[:32]


def remember_max_age() -> timedelta:
    return timedelta(days=settings.STAFF_MFA_REMEMBER_DAYS)


def remember_cookie_set(response, *, user, device: TOTPDevice) -> None:
    if settings.STAFF_MFA_REMEMBER_DAYS <= 0:
        return
    response.set_signed_cookie(
        REMEMBER_COOKIE,
        f"{user.pk}:{device.pk}:{_key_fingerprint(device)}",
        salt=_REMEMBER_SALT,
        max_age=int(remember_max_age().total_seconds()),
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def remembered_device(request, *, user) -> TOTPDevice | None:
    """The user's TOTP device if this browser holds a valid, unexpired remembered-device
    cookie for it (signed by SECRET_KEY, bound to the user and the device's current secret)."""
    if settings.STAFF_MFA_REMEMBER_DAYS <= 0:
        return None
    try:
        value = request.get_signed_cookie(
            REMEMBER_COOKIE,
            salt=_REMEMBER_SALT,
            max_age=remember_max_age().total_seconds(),
        )
    except (KeyError, signing.BadSignature):
        return None
    user_id, _, rest = value.partition(":")
    device_id, _, fingerprint = rest.partition(":")
    if user_id != str(user.pk):
        return None
    device = TOTPDevice.objects.filter(pk=device_id, user=user, confirmed=True).first()
    if device is None or _key_fingerprint(device) != fingerprint:
        return None
    return device
