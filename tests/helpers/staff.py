"""Staff logins in tests: sessions as the console's login leaves them (password and second
factor passed), and TOTP codes computed from a user's enrolled device."""

from __future__ import annotations

import time

from django_otp import DEVICE_ID_SESSION_KEY
from django_otp.oath import hotp
from django_otp.plugins.otp_totp.models import TOTPDevice

from casino.staff.mfa import TOTP_NAME
from casino.staff.sessions import SEEN_KEY, STARTED_KEY


def enrolled_device(user) -> TOTPDevice:
    """The user's confirmed TOTP device (enrolled now if they have none)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=True).first()
    return device or TOTPDevice.objects.create(user=user, name=TOTP_NAME, confirmed=True)


def session_mark_verified(session, user, *, device: TOTPDevice | None = None) -> None:
    """Mark a logged-in session (not saved here) as the console's login leaves it: its login
    time and, unless ``device`` is False, the device that verified the second factor."""
    if device is not False:
        session[DEVICE_ID_SESSION_KEY] = (device or enrolled_device(user)).persistent_id
    session[STARTED_KEY] = session[SEEN_KEY] = time.time()


def _session_login(client, user, *, device) -> None:
    client.force_login(user)
    session = client.session
    session_mark_verified(session, user, device=device)
    session.save()


def login_verified(client, user) -> TOTPDevice:
    """Log ``client`` (Django's or DRF's test client) in as ``user``, OTP-verified the way
    django-otp's ``login()`` marks a session (the user is enrolled first if need be)."""
    device = enrolled_device(user)
    _session_login(client, user, device=device)
    return device


def login_unverified(client, user) -> None:
    """A logged-in session that never passed the second factor (which the console's own login
    cannot produce): the API and the console must refuse it."""
    _session_login(client, user, device=False)


def totp_code(device: TOTPDevice) -> str:
    """A code the device accepts now. A device refuses a time step it already accepted, so a
    second login within the same 30 s uses the next step (within its tolerance), waiting for
    the clock only when even that is used up."""
    while True:
        device.refresh_from_db()
        now_step = int((time.time() - device.t0) // device.step) + device.drift
        step = max(now_step, device.last_t + 1)
        if step <= now_step + device.tolerance:
            return f"{hotp(device.bin_key, step, digits=device.digits):0{device.digits}d}"
        time.sleep(1)
