"""Issue 32's "Done when": a new author, in the browser, writes and publishes one question
of each kind (concept, numeric, coding) without the Django admin, and a learner then reads
each. Every export goes to a bank folder of the test's own, which after every click holds
only entries the loader reads (no refused entry, no staging folder), and at the end loads
whole with the strict loader. Then a file broken on disk by hand: the site stays up, its
question leaves the public pages, and authors read why and mend it from the pages."""

import io
import shutil

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import expect

from authoring import services, writing
from questions import loader
from questions.models import Kind

from .test_authoring_flow import people, sign_in  # noqa: F401 (people is a fixture)

pytestmark = pytest.mark.browser

TOPIC = "Technical Foundation and Self Assessment"
CONCEPT_PROMPT = "Why does a blocked matrix multiply run faster than the naive triple loop?"
NUMERIC_PROMPT = "How many bytes does a 1024 by 1024 matrix of float64 take, in MiB?"
CODING_PROMPT = "Return `(2x + 1)²` for every value of `x`, without a Python loop."
CODING_PROMPT_EDITED = "Return `(2x + 1)²` for **every** value of `x`, without a Python loop."
CONCEPT = {
    "title": "",
    "topic": TOPIC,
    "difficulty": "easy",
    "prompt": "Why does it help?",
    "sample_answer": "It reuses cached data.",
    "rubric": ["Reuse", "Cache size", "Bandwidth", "Arithmetic intensity"],
}
#: Saving a coding exercise's first version grades the template in the sandbox.
VALIDATION_TIMEOUT_MS = 240_000


@pytest.fixture
def bank_root(tmp_path, monkeypatch):
    """Exports land here, not in questions/bank/ (the live server runs in this process)."""
    root = tmp_path / "bank"
    root.mkdir()
    monkeypatch.setattr(loader, "default_bank_dir", lambda: root)
    return root


def assert_bank_loads(root):
    """What load_bank checks of every file (read_bank), and nothing half written."""
    entries, errors = loader.read_bank(root)
    assert errors == [], errors
    assert [path.name for path in root.rglob(".*")] == []  # no staging folder left behind
    return sorted(entry.slug for entry in entries)


def publish_and_export(page, root, slug):
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Published: it is on the public pages now.")).to_be_visible()
    page.get_by_role("button", name="Export to the bank").click()
    expect(page.get_by_text("Exported to questions/bank/")).to_be_visible()
    assert slug in assert_bank_loads(root)


def test_a_new_author_writes_and_publishes_every_kind_and_a_learner_reads_each(
    open_page,
    people,  # noqa: F811
    bank_root,
    screenshot,
):
    if shutil.which("bwrap") is None:
        pytest.skip("saving a coding exercise's code validates it in the sandbox: bubblewrap (bwrap) is needed")
    page = open_page()
    sign_in(page, "author")
    page.get_by_role("navigation").get_by_role("link", name="Authoring").click()

    # A concept question: its rubric is asked for, then it is previewed, published and exported.
    page.get_by_role("link", name="New concept question").click()
    page.get_by_label("Title").fill("Blocked matrix multiply")
    page.get_by_label("Topic").select_option(TOPIC)
    page.get_by_label("Difficulty").select_option("medium")
    page.get_by_label("Prompt").fill(CONCEPT_PROMPT)
    page.get_by_label("Rubric points").fill("Reuse of loaded data\nCache size\nMemory bandwidth\nArithmetic intensity")
    page.get_by_label("Sample answer").fill("Each block is reused from cache many times.")
    page.get_by_role("button", name="Save as a draft").click()
    expect(page.get_by_role("heading", name="Blocked matrix multiply")).to_be_visible()
    assert_bank_loads(bank_root)  # a draft is not in the bank's files
    publish_and_export(page, bank_root, "blocked-matrix-multiply")

    # A numeric question.
    page.get_by_role("link", name="Authoring", exact=True).first.click()
    page.get_by_role("link", name="New numeric question").click()
    page.get_by_label("Title").fill("A float64 matrix")
    page.get_by_label("Topic").select_option(TOPIC)
    page.get_by_label("Difficulty").select_option("easy")
    page.get_by_label("Prompt").fill(NUMERIC_PROMPT)
    page.get_by_label("Expected answer").fill("8")
    page.get_by_label("Unit").fill("MiB")
    page.get_by_label("Tolerance").fill("0.01")
    page.get_by_label("Sample answer").fill("8 MiB.")
    page.get_by_label("Explanation").fill("1 Mi values times 8 bytes is 8 MiB.")
    page.get_by_role("button", name="Save as a draft").click()
    expect(page.get_by_role("heading", name="A float64 matrix")).to_be_visible()
    publish_and_export(page, bank_root, "a-float64-matrix")

    # A coding exercise: its page, then its code from the template, then its text edited.
    page.get_by_role("link", name="Authoring", exact=True).first.click()
    page.get_by_role("link", name="New coding exercise").click()
    page.get_by_label("Title").fill("Square an affine map")
    page.get_by_label("Topic").select_option("Algorithmic Complexity & Code-Level Optimization")
    page.get_by_label("Difficulty").select_option("easy")
    page.get_by_label("Prompt").fill(CODING_PROMPT)
    page.get_by_label("Sample answer").fill("One NumPy expression over the whole array: `(2.0 * x + 1.0) ** 2`.")
    page.get_by_role("button", name="Save as a draft and write its code").click()
    expect(page.get_by_role("heading", name="Edit Square an affine map")).to_be_visible()

    # Exporting or publishing before it has code is refused, and writes nothing.
    page.get_by_role("link", name="Square an affine map").click()
    page.get_by_role("button", name="Export to the bank").click()
    expect(page.locator("#export-errors")).to_contain_text("Not exported, and nothing was written")
    assert "square-an-affine-map" not in assert_bank_loads(bank_root)
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("this exercise has no version yet")).to_be_visible()

    page.get_by_role("link", name="Write its first version (from a template)").click()
    page.get_by_role("button", name="Validate and save as a new version").click()
    expect(page.get_by_text("Saved as version 1.")).to_be_visible(timeout=VALIDATION_TIMEOUT_MS)

    page.get_by_role("link", name="Edit its text").click()
    page.get_by_label("Prompt").fill(CODING_PROMPT_EDITED)
    page.get_by_role("button", name="Check and preview without saving").click()
    preview = page.locator(".authoring-preview")
    expect(preview.locator("strong", has_text="every")).to_be_visible()  # the Markdown as learners read it
    expect(preview).to_contain_text("The code the editor starts from (version 1)")
    screenshot(page, "authoring-coding-text", full_page=True)
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.get_by_text("author · edited it")).to_be_visible()
    publish_and_export(page, bank_root, "square-an-affine-map")

    page.get_by_role("link", name="Authoring", exact=True).first.click()
    for title in ("Blocked matrix multiply", "A float64 matrix", "Square an affine map"):
        expect(page.get_by_role("row", name=title)).to_contain_text("Published")
    assert page.get_by_role("link", name="Django administration").count() == 0

    report = loader.load_bank(bank_root, validate=False, strict=True)
    assert sorted(report.unchanged) == ["a-float64-matrix", "blocked-matrix-multiply", "square-an-affine-map"]

    learner = open_page()
    sign_in(learner, "learner")
    learner.goto("/questions/")
    for title in ("Blocked matrix multiply", "A float64 matrix", "Square an affine map"):
        learner.get_by_role("link", name=title).first.click()
        expect(learner.get_by_role("heading", level=1)).to_have_text(title)
        learner.go_back()
    learner.goto("/questions/square-an-affine-map/")
    expect(learner.locator(".prompt strong", has_text="every")).to_be_visible()
    expect(learner.locator(".cm-editor .cm-content")).to_be_visible()  # the editor, on the template's starter
    learner.goto("/questions/a-float64-matrix/")
    learner.get_by_label("Your answer").fill("8 MiB")
    learner.get_by_label("4 · confident").check()
    learner.get_by_role("button", name="Check my answer").click()
    expect(learner.get_by_role("heading", name="Correct")).to_be_visible()
    assert open_page.errors == []


def test_a_broken_bank_file_leaves_the_site_up_and_is_listed_for_authors(open_page, people, bank_root):  # noqa: F811
    """A file broken on disk (by hand, not by the pages): load_bank names it and loads the rest,
    learners no longer see its question, authors read why, and an export from the pages mends it."""
    author = User.objects.get(username="author")
    for slug, title in (("why-tiles", "Why tiles"), ("why-prefetch", "Why prefetch")):
        values = {**CONCEPT, "title": title}
        question = writing.save_question(Kind.CONCEPT, slug, values, author)
        services.set_public(question, True, author)
        services.export_to_bank(question, author)
    call_command("load_bank", "--path", str(bank_root), "--skip-validation", stdout=io.StringIO(), stderr=io.StringIO())
    broken = bank_root / "technical-foundation" / "why-tiles.md"
    broken.write_text(broken.read_text().replace("# Sample answer", "# Sample answers"))
    err = io.StringIO()
    call_command("load_bank", "--path", str(bank_root), "--skip-validation", stdout=io.StringIO(), stderr=err)
    assert "technical-foundation/why-tiles.md: unknown section '# Sample answers'" in err.getvalue()

    learner = open_page()
    sign_in(learner, "learner")
    learner.goto("/questions/")
    expect(learner.get_by_role("link", name="Why prefetch")).to_be_visible()
    expect(learner.get_by_role("link", name="Why tiles")).to_have_count(0)

    page = open_page()
    sign_in(page, "author")
    page.get_by_role("navigation").get_by_role("link", name="Authoring").click()
    left_out = page.get_by_role("alert").filter(has_text="left out")
    expect(left_out).to_contain_text("questions/bank/technical-foundation/why-tiles.md")
    expect(left_out).to_contain_text("unknown section '# Sample answers'")
    left_out.get_by_role("link", name="Why tiles").click()
    expect(page.get_by_text("off the public pages until the file loads again")).to_be_visible()
    page.get_by_role("button", name="Export to the bank").click()  # the last loaded text, over the broken file
    expect(page.get_by_text("Exported to questions/bank/technical-foundation/why-tiles.md")).to_be_visible()
    assert assert_bank_loads(bank_root) == ["why-prefetch", "why-tiles"]
    call_command("load_bank", "--path", str(bank_root), "--skip-validation", stdout=io.StringIO(), stderr=io.StringIO())
    page.reload()
    expect(page.get_by_text("off the public pages until the file loads again")).to_have_count(0)
    page.get_by_role("button", name="Publish").click()
    expect(page.get_by_text("Published: it is on the public pages now.")).to_be_visible()
    learner.goto("/questions/why-tiles/")
    expect(learner.get_by_role("heading", level=1)).to_have_text("Why tiles")
    assert open_page.errors == []
