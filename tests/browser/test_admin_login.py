import pytest

from casino.api import roles
from tests.browser.conftest import admin_login
from tests.factories import UserFactory

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
