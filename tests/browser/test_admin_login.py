import pytest

from casino.api import roles
from tests.browser.conftest import admin_login
from tests.factories import UserFactory
from tests.helpers.staff import enrolled_device, totp_code

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_staff_member_logs_in_to_the_pit_console(page, live_server, screenshot):
    UserFactory(username="boss", roles=[roles.PIT_BOSS])
    admin_login(page, live_server, "boss", "correct-horse-battery")
    page.wait_for_selector("#user-tools")
    assert "boss" in page.inner_text("#user-tools").lower()
    screenshot("admin-index-pit-boss")


def test_wrong_password_is_refused(page, live_server):
    UserFactory(username="boss2", roles=[roles.PIT_BOSS])
    admin_login(page, live_server, "boss2", "not-the-password")
    assert page.locator(".errornote").is_visible()
    assert "/admin/login/" in page.url


def test_a_newcomer_enrols_then_a_remembered_browser_skips_the_code(page, live_server):
    user = UserFactory(username="newbie", roles=[roles.FLOOR_SUPERVISOR])
    admin_login(page, live_server, "newbie", "correct-horse-battery")  # enrols on the page
    page.wait_for_selector("#user-tools")
    page.click("#logout-form button")
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "newbie")
    page.fill("#id_password", "correct-horse-battery")
    page.click("input[type=submit]")
    page.fill("#id_token", totp_code(enrolled_device(user)))
    page.check("#id_remember")
    page.click("#mfa-form input[type=submit]")
    page.wait_for_selector("#user-tools")
    page.click("#logout-form button")
    page.goto(f"{live_server.url}/admin/login/")
    page.fill("#id_username", "newbie")
    page.fill("#id_password", "correct-horse-battery")
    page.click("input[type=submit]")
    page.wait_for_selector("#user-tools")  # straight in: this browser is remembered
    assert "/admin/mfa/" not in page.url


def test_swagger_ui_renders_under_the_content_security_policy(page, live_server):
    page.goto(f"{live_server.url}/api/v1/docs/")
    page.wait_for_selector(".swagger-ui .info .title")
    assert "Casino table management API" in page.inner_text(".swagger-ui .info .title")
