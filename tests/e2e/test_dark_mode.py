"""Dark mode in real Chromium: it follows prefers-color-scheme, the menu's toggle overrides it
and is remembered, and it reaches the editor, highlighted code, KaTeX maths and the charts.
Screenshots of both themes (docs/screenshots/ with HOTPATH_SCREENSHOTS=1)."""

import pytest
from playwright.sync_api import expect

from questions.models import Attempt, Kind, Question
from tests.submissions.conftest import exercise_version  # noqa: F401  (fixture: a coding exercise)

pytestmark = pytest.mark.browser

PASSWORD = "a-long-e2e-passphrase-42"
CODE_SLUG = "vectorise-or-compile"  # a concept question whose sample answer has Python code
MATHS_SLUG = "activation-size"  # a numeric question typeset with KaTeX
CODING_SLUG = "tiny-scale"
DARK_TEXT = "#c9ced8"  # Chart.js text colour on dark pages (static/js/theme.js)


def luminance(page, selector, prop="background-color"):
    """0 (black) .. 255 (white): the mean of the element's computed colour channels."""
    colour = page.locator(selector).first.evaluate(f"(el) => getComputedStyle(el).getPropertyValue('{prop}')")
    channels = [float(part) for part in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
    return sum(channels) / 3


@pytest.fixture
def questions(transactional_db, exercise_version):
    """One question of each kind the theme must reach: maths, highlighted code, the editor."""
    Question.objects.create(
        slug=CODE_SLUG,
        title="Vectorise or compile?",
        topic="Algorithmic Complexity",
        difficulty="medium",
        kind=Kind.CONCEPT,
        prompt="When does a compiled loop beat $y = (2x + 1)^2$ written in NumPy?",
        sample_answer="When temporaries dominate:\n\n```python\n@numba.njit\ndef transform(x):\n    return (2 * x + 1) ** 2\n```\n",
        rubric=["Temporaries cost memory bandwidth."],
    )
    Question.objects.create(
        slug=MATHS_SLUG,
        title="Activation size",
        topic="Memory",
        difficulty="easy",
        kind=Kind.NUMERIC,
        prompt="How many bytes hold $32 \\times 2048 \\times 4096$ float32 values, $\\frac{n}{2^{30}}$ GiB?",
        answer_value=1,
        answer_unit="GiB",
        tolerance=0.01,
    )


@pytest.fixture
def learner(questions, make_user):
    user = make_user("nightowl")
    user.set_password(PASSWORD)
    user.save()
    for confidence, score in ((2, 0.0), (4, 1.0), (5, 1.0)):  # scored answers: the calibration chart draws
        Attempt.objects.create(
            user=user, question=Question.objects.get(slug=MATHS_SLUG), confidence=confidence, score=score
        )
    return user


def sign_in(page):
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("nightowl")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def test_dark_mode_follows_the_system_and_the_toggle(open_page, learner, screenshot):
    page = open_page()
    page.emulate_media(color_scheme="dark")
    sign_in(page)
    html = page.locator("html")
    expect(html).to_have_attribute("data-theme", "dark")
    assert luminance(page, "body") < 40

    # Highlighted code in a sample answer.
    page.goto(f"/questions/{CODE_SLUG}/")
    page.get_by_label("Your answer").fill("Vectorise; JIT-compile the loop when it cannot be vectorised.")
    page.get_by_label("4 · confident").check()
    page.get_by_role("button", name="Reveal sample answer").click()
    expect(page.locator(".highlight").first).to_be_visible()
    assert luminance(page, ".highlight") < 40 and luminance(page, ".highlight", "color") > 180
    page.locator(".highlight").first.scroll_into_view_if_needed()
    screenshot(page, "dark-code")

    # KaTeX maths in the text colour.
    page.goto(f"/questions/{MATHS_SLUG}/")
    expect(page.locator(".prompt .katex").first).to_be_visible()
    assert luminance(page, ".prompt .katex", "color") > 180
    screenshot(page, "dark-question-maths")

    # The code editor in One Dark.
    page.goto(f"/questions/{CODING_SLUG}/")
    expect(page.locator(".cm-editor .cm-content")).to_be_visible()
    assert luminance(page, ".cm-editor") < 60
    screenshot(page, "dark-coding-editor")

    # Charts: Chart.js draws its text and grid in the dark theme's colours.
    page.goto("/questions/progress/")
    expect(page.locator("#calibration-chart")).to_be_visible()
    page.wait_for_load_state("load")
    assert page.evaluate("Chart.defaults.color") == DARK_TEXT
    assert page.evaluate("Object.values(Chart.instances).length") == 1
    screenshot(page, "dark-progress", full_page=True)

    # The toggle wins over the system's dark preference, and is remembered.
    toggle = page.get_by_role("button", name="Dark mode")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    toggle.click()
    expect(html).to_have_attribute("data-theme", "light")
    assert page.evaluate("Chart.defaults.color") != DARK_TEXT
    page.goto(f"/questions/{CODING_SLUG}/")
    expect(html).to_have_attribute("data-theme", "light")
    assert luminance(page, "body") > 200 and luminance(page, ".cm-editor") > 200
    screenshot(page, "light-coding-editor")

    # Switching back restyles the open editor at once, without a reload.
    page.get_by_role("button", name="Dark mode").click()
    expect(html).to_have_attribute("data-theme", "dark")
    page.wait_for_function(
        "getComputedStyle(document.querySelector('.cm-editor')).backgroundColor !== 'rgb(255, 255, 255)'"
    )
    assert luminance(page, ".cm-editor") < 60
    assert open_page.errors == []


def test_a_light_system_gets_light_pages(open_page, learner):
    page = open_page()
    page.emulate_media(color_scheme="light")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    expect(page.get_by_role("button", name="Dark mode")).to_have_attribute("aria-pressed", "false")
