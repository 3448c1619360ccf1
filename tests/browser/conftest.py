"""Browser tests: Playwright driving Debian's chromium (no browser download) against Django's live_server.

They are skipped, with the reason printed at the end of the run, when /usr/bin/chromium is absent.
"""

import os
from pathlib import Path

import pytest

from testkit.chromium import CHROMIUM, CHROMIUM_ARGS

# Playwright's sync API runs an event loop in the test thread; Django's ORM calls made by the test itself would
# otherwise be refused as "async unsafe".
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
SKIP_REASON = f"browser tests skipped: {CHROMIUM} is absent (install it with: apt-get install -y chromium)"


def pytest_collection_modifyitems(config, items):
    if os.path.exists(CHROMIUM):
        return
    skip = pytest.mark.skip(reason=SKIP_REASON)
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not os.path.exists(CHROMIUM) and any(
        "browser" in r.keywords for r in terminalreporter.stats.get("skipped", []) if hasattr(r, "keywords")
    ):
        terminalreporter.write_line(SKIP_REASON, yellow=True, bold=True)


@pytest.fixture(scope="session")
def playwright_session():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        yield pw


@pytest.fixture(scope="session")
def browser(playwright_session):
    browser = playwright_session.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture(scope="session")
def devices(playwright_session):
    """Playwright's device descriptors ("iPhone 13", "Pixel 7"...): a phone's screen, user agent and touch."""
    return playwright_session.devices


def watch_csp(page):
    """Collect the Content-Security-Policy violations the browser reports on ``page`` (an inline style or script
    the policy blocks: the page would look or work differently in production)."""
    violations = []
    page.on(
        "console",
        lambda msg: violations.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    return violations


@pytest.fixture
def desktop(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="pt-BR")
    page = context.new_page()
    page.set_default_timeout(15000)
    violations = watch_csp(page)
    yield page
    context.close()
    assert not violations, violations


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True, has_touch=True, locale="pt-BR"
    )
    page = context.new_page()
    page.set_default_timeout(15000)
    violations = watch_csp(page)
    yield page
    context.close()
    assert not violations, violations


@pytest.fixture
def shot():
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page, name, full_page=True):
        page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=full_page)

    return take


@pytest.fixture(autouse=True)
def opening_tables(opening_tables_loaded):
    """The tablita tables come from a data migration, which the flush between transactional tests wipes."""


@pytest.fixture(autouse=True)
def _fresh_cache():
    from django.core.cache import cache

    from tournaments.public import page_cache

    cache.clear()
    page_cache._SLUGS.clear()
    yield
    cache.clear()
    page_cache._SLUGS.clear()


@pytest.fixture(autouse=True)
def _tasks_run_at_once(settings):
    """The live server has no db_worker beside it: background work (a pairing started from the staff page, a
    submission to the federation) runs as soon as it is queued, in the request that queued it."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.immediate.ImmediateBackend", "QUEUES": ["default"]}}
