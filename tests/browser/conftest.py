"""Playwright on Debian's chromium (Playwright's own browser download is not used)."""

import base64
import os
import shutil
from pathlib import Path

import pytest
from django_otp.oath import totp

from tests.helpers.staff import totp_code

# Playwright's sync API keeps an event loop running in the test thread; the Django calls the
# tests make there (factories, assertions) are ordinary synchronous ones.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
ARTIFACTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


# Per package, not per session: while it is open, the sync API's event loop stays running in
# the test thread (asyncio.get_running_loop() answers), and a test whose Django client calls
# the async stream view is refused there ("You cannot use AsyncToSync in the same thread as an
# async event loop"). Under pytest-xdist, where a process may run browser files before others,
# the tenant-boundary matrix failed so twice after them; it passed with this scope.
@pytest.fixture(scope="package")
def browser():
    if not shutil.which(CHROMIUM):
        pytest.fail(
            f"chromium not found at {CHROMIUM}: `make test` installs Debian's chromium when run "
            "as root; otherwise install it (apt-get install chromium) or set CHROMIUM_PATH."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A fresh browser page; the test fails if any page it loads broke the
    Content-Security-Policy (chromium reports each blocked script, style or request)."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(15_000)
    violations = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    yield page
    context.close()
    assert violations == [], "Content-Security-Policy violations:\n" + "\n".join(violations)


@pytest.fixture
def screenshot(page):
    """Save a full-page screenshot as a test artefact: artifacts/screenshots/<name>.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def shoot(name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return shoot


def admin_login(page, live_server, username: str, password: str) -> None:
    """Log in through the console's login form, then type the second factor: the code of the
    user's enrolled TOTP device, or, for a user without one, enrol through the page (the code
    computed from the secret it shows)."""
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("input[type=submit]")
    page.wait_for_load_state()
    if "/admin/mfa/enrol/" in page.url:
        secret = page.inner_text("#totp-secret").strip()
        page.fill("#id_token", f"{totp(base64.b32decode(secret)):06d}")
        page.click("#mfa-form input[type=submit]")
        page.click("#mfa-continue")
    elif "/admin/mfa/" in page.url:
        from django_otp.plugins.otp_totp.models import TOTPDevice

        device = TOTPDevice.objects.get(user__username=username, confirmed=True)
        page.fill("#id_token", totp_code(device))
        page.click("#mfa-form input[type=submit]")
