"""The committed CodeMirror bundle highlights CUDA C++ inside a RawKernel's source: a
triple-quoted Python string that declares a kernel is parsed again as C++
(frontend/cuda_in_python.js), while any other string stays one Python string."""

from pathlib import Path

import pytest
from django.conf import settings

from tests import chromium

BUNDLE = Path(settings.BASE_DIR) / "static" / "vendor" / "editor" / "editor.bundle.js"

FORM = '''
<form id="coding" method="post" action="about:blank">
  <label for="code-editor">Your solution</label>
  <textarea id="code-editor" name="code">import cupy as cp

_scale = cp.RawKernel(r"""
extern "C" __global__ void scale(float* x, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i &lt; n) x[i] = 2.0f * x[i];
}
""", "scale")

NOTE = """void int if, but only words in a docstring"""
</textarea>
</form>
'''

# The text of every highlighted token on the line that holds `needle`.
TOKENS = """(needle) => {
  const line = [...document.querySelectorAll('.cm-line')].find((l) => l.textContent.includes(needle));
  return [...line.querySelectorAll('span[class]')].map((s) => s.textContent);
}"""


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


def test_kernel_source_is_highlighted_as_cpp(editor):
    tokens = editor.evaluate(TOKENS, "void scale")
    assert "void" in tokens and "int" in tokens and "float" in tokens, tokens  # C++ types, each its own token
    assert "if" in editor.evaluate(TOKENS, "2.0f"), "the kernel's keywords are highlighted"


def test_any_other_string_stays_one_python_string(editor):
    tokens = editor.evaluate(TOKENS, "only words")
    assert tokens == ['"""void int if, but only words in a docstring"""'], tokens
