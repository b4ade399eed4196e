"""Author Markdown -> safe HTML: maths, highlighted code, and nothing dangerous."""

from html.parser import HTMLParser

import pytest
from django.template import Context, Template

from questions.rendering import render_markdown, sanitize


class TagCollector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def parsed(html):
    collector = TagCollector()
    collector.feed(html)
    return collector.tags


def assert_harmless(html):
    for tag, attrs in parsed(html):
        assert tag not in {"script", "style", "iframe", "object"}, html
        assert not any(name.startswith("on") for name in attrs), html
        assert "style" not in attrs, html
        for name in ("href", "src"):
            assert not attrs.get(name, "").strip().lower().startswith(("javascript:", "data:", "vbscript:")), html


@pytest.mark.parametrize(
    "source",
    [
        "<script>alert(1)</script>",
        '<img src="x" onerror="alert(1)">',
        '<a href="#" onclick="steal()">click</a>',
        '<p style="position:fixed">overlay</p>',
        "[click me](javascript:alert(1))",
        "[click me](JaVaScRiPt:alert(1))",
        "![x](javascript:alert(1))",
        "<iframe src=https://evil.example></iframe>",
        "<div>\n<script>alert(1)</script>\n</div>",
    ],
)
def test_dangerous_markdown_never_reaches_the_page(source):
    html = render_markdown(f"Before\n\n{source}\n\nAfter")
    assert_harmless(html)
    assert "<script" not in html and "<iframe" not in html


def test_raw_html_is_shown_as_text_not_markup():
    html = render_markdown("Some <b>bold</b> text")
    assert "<b>" not in html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html


@pytest.mark.parametrize(
    "fragment",
    [
        '<p onclick="x()" style="color:red">a</p>',
        '<a href="javascript:alert(1)">l</a>',
        '<img src="x" onerror="alert(1)">',
        "<script>alert(1)</script>",
        '<span class="math evil">m</span>',
    ],
)
def test_sanitiser_strips_what_a_parser_bug_could_let_through(fragment):
    html = sanitize(fragment)
    assert_harmless(html)
    assert "evil" not in html and "alert" not in html.replace("javascript", "")


def test_links_get_noopener_noreferrer():
    html = render_markdown("[docs](https://example.com/docs)")
    assert '<a href="https://example.com/docs" rel="noopener noreferrer">docs</a>' in html


def test_inline_and_display_maths_are_marked_for_katex():
    html = render_markdown("Cost is $O(n \\log n)$ here.\n\n$$\na < b\n$$\n")
    assert '<span class="math inline">\\(O(n \\log n)\\)</span>' in html
    assert '<div class="math display">\\[a &lt; b\\]</div>' in html


def test_prices_are_not_maths():
    html = render_markdown("A GPU costs $3 an hour and a CPU $0.20 an hour.")
    assert "math" not in html
    assert "$3 an hour and a CPU $0.20" in html


def test_fenced_code_is_highlighted_with_css_classes():
    html = render_markdown("```python\ndef f(x):\n    return x < 3\n```\n")
    assert '<pre class="highlight"><code>' in html
    assert '<span class="k">def</span>' in html
    assert '<span class="o">&lt;</span>' in html


def test_unknown_language_is_plain_escaped_code():
    html = render_markdown("```nosuchlang\na < b\n```\n")
    assert '<pre class="highlight"><code>a &lt; b\n</code></pre>' in html


def test_table_alignment_survives_as_classes():
    html = render_markdown("| a | b |\n|---|--:|\n| 1 | 2 |\n")
    assert '<td class="align-right">2</td>' in html
    assert "style=" not in html


def test_template_filter_renders_safe_html():
    html = Template("{% load markdown %}{{ text|markdown }}").render(Context({"text": "**bold** <script>x</script>"}))
    assert "<strong>bold</strong>" in html
    assert "<script>" not in html
