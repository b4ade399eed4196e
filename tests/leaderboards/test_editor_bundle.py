"""The committed CodeMirror bundle, driven in Debian's Chromium: it replaces textarea#code-editor,
keeps the textarea in sync for the form post, and its shortcuts press the form's
data-action buttons."""

from pathlib import Path

import pytest
from django.conf import settings

from tests import chromium

BUNDLE = Path(settings.BASE_DIR) / "static" / "vendor" / "editor" / "editor.bundle.js"

FORM = """
<form id="coding" method="post" action="about:blank" onsubmit="event.preventDefault(); window.pressed = event.submitter.dataset.action;">
  <label for="code-editor">Your solution</label>
  <textarea id="code-editor" name="code">def transform(x):
    return x
</textarea>
  <button type="submit" name="action" value="check" data-action="check">Run quick check</button>
  <button type="submit" name="action" value="submit" data-action="submit">Submit for grading</button>
</form>
"""


@pytest.fixture(scope="module")
def page():
    with chromium.launched() as browser:
        yield browser.new_page()


@pytest.fixture
def editor(page):
    page.set_content(FORM)
    page.add_script_tag(path=str(BUNDLE))
    page.wait_for_selector(".cm-editor .cm-content")
    return page


def test_bundle_replaces_the_textarea_with_a_labelled_python_editor(editor):
    assert editor.is_hidden("textarea#code-editor")
    content = editor.locator(".cm-content")
    assert content.get_attribute("aria-labelledby") == "code-editor-label"
    assert editor.text_content("#code-editor-label") == "Your solution"
    assert "Enter submits for grading" in editor.text_content("#code-editor-keys")
    assert editor.locator(".cm-lineNumbers").count() == 1
    assert editor.locator(".cm-content span[class]").count() > 0  # Python tokens are highlighted


def test_typing_keeps_the_textarea_in_sync(editor):
    editor.click(".cm-content")
    editor.keyboard.press("Control+End")
    editor.keyboard.type("# faster")
    assert editor.input_value("textarea#code-editor").endswith("# faster")


@pytest.mark.parametrize("keys, action", [("Control+Enter", "submit"), ("Control+Shift+Enter", "check")])
def test_shortcuts_press_the_forms_buttons(editor, keys, action):
    editor.click(".cm-content")
    editor.keyboard.press(keys)
    assert editor.evaluate("window.pressed") == action
