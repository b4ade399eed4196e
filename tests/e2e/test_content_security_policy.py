"""The Content-Security-Policy in real Chromium: every page's scripts still run (the editor,
KaTeX, the charts, the theme, Swagger UI by its nonce) and Chromium reports no violation."""

import pytest
from playwright.sync_api import expect

from tests.e2e.test_dark_mode import CODE_SLUG, CODING_SLUG, MATHS_SLUG, learner, questions, sign_in  # noqa: F401
from tests.submissions.conftest import exercise_version  # noqa: F401  (fixture: a coding exercise)

pytestmark = pytest.mark.browser


def test_pages_work_under_the_policy_without_violations(open_page, learner):  # noqa: F811
    page = open_page()
    violations = []
    page.on("console", lambda message: "Content Security Policy" in message.text and violations.append(message.text))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e => console.error("
        "'Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    response = page.goto("/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    sign_in(page)

    page.goto(f"/questions/{MATHS_SLUG}/")
    expect(page.locator(".prompt .katex").first).to_be_visible()
    page.goto(f"/questions/{CODING_SLUG}/")
    expect(page.locator(".cm-editor .cm-content")).to_be_visible()
    page.goto(f"/questions/{CODE_SLUG}/")
    page.goto("/questions/progress/")
    expect(page.locator("#calibration-chart")).to_be_visible()
    page.wait_for_load_state("load")
    assert page.evaluate("Object.values(Chart.instances).length") == 1
    page.goto("/leaderboards/")
    page.get_by_role("button", name="Dark mode").click()
    expect(page.locator("html")).to_have_attribute("data-theme", "dark")

    response = page.goto("/api/v1/docs/")
    assert "'nonce-" in response.headers["content-security-policy"]
    expect(page.locator(".swagger-ui .opblock").first).to_be_visible()

    assert violations == []
    assert open_page.errors == []
