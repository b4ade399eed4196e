"""Markdown written by question authors -> HTML that is safe to put on a page.

Pipeline: markdown-it-py (CommonMark + tables, raw HTML disabled) with dollar
maths, fenced code highlighted by Pygments, then nh3 with an explicit allow-list.
The sanitiser runs last and on everything, so even if a parser rule lets markup
through, a <script>, an on*= handler, a style= attribute or a javascript: link
never reaches the page.

Maths is not typeset here: it is emitted as escaped TeX between \\( \\) or
\\[ \\] inside <span class="math inline"> / <div class="math display">, and
KaTeX's auto-render typesets those elements in the browser.
"""

import functools
import html

import nh3
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name
from pygments.token import STANDARD_TYPES
from pygments.util import ClassNotFound

PYGMENTS_CLASSES = frozenset(name for name in STANDARD_TYPES.values() if name)
TABLE_ALIGN_CLASSES = frozenset({"align-left", "align-center", "align-right"})

ALLOWED_TAGS = frozenset(
    {
        "a",
        "blockquote",
        "br",
        "code",
        "del",
        "div",
        "em",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "img",
        "li",
        "ol",
        "p",
        "pre",
        "s",
        "span",
        "strong",
        "table",
        "tbody",
        "td",
        "th",
        "thead",
        "tr",
        "ul",
    }
)
# "class" is not listed here: nh3 takes it from ALLOWED_CLASSES, value by value.
ALLOWED_ATTRIBUTES = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "ol": {"start"},
}
ALLOWED_CLASSES = {
    "span": {"math", "inline", "display"} | PYGMENTS_CLASSES,
    "div": {"math", "display"},
    "pre": {"highlight"},
    "td": TABLE_ALIGN_CLASSES,
    "th": TABLE_ALIGN_CLASSES,
}
URL_SCHEMES = frozenset({"http", "https", "mailto"})

_formatter = HtmlFormatter(nowrap=True)


def _highlight_code(code, lang, _attrs):
    """Return a complete <pre> block so markdown-it uses it as is."""
    try:
        lexer = get_lexer_by_name(lang) if lang else None
    except ClassNotFound:
        lexer = None
    body = highlight(code, lexer, _formatter) if lexer else html.escape(code)
    return f'<pre class="highlight"><code>{body}</code></pre>\n'


def _render_math(content, options):
    # The delimiters stay in the text: KaTeX auto-render looks for them.
    tex = html.escape(content)
    return f"\\[{tex}\\]" if options["display_mode"] else f"\\({tex}\\)"


def _display_math(self, tokens, idx, options, env):
    return f'<div class="math display">{_render_math(tokens[idx].content.strip(), {"display_mode": True})}</div>\n'


def _display_math_in_paragraph(self, tokens, idx, options, env):
    # A <div> may not sit inside <p>: display maths written mid-paragraph is a span.
    return f'<span class="math display">{_render_math(tokens[idx].content.strip(), {"display_mode": True})}</span>'


def _table_alignment_to_classes(state):
    """markdown-it writes column alignment as style="text-align:x"; the sanitiser
    drops every style attribute, so carry alignment as a class instead."""
    for token in state.tokens:
        if token.type in ("th_open", "td_open"):
            style = token.attrs.pop("style", None)
            if style and style.startswith("text-align:"):
                token.attrSet("class", f"align-{style.split(':', 1)[1]}")


def _build_parser():
    md = MarkdownIt("commonmark", {"html": False, "highlight": _highlight_code}).enable("table")
    # No digits or spaces hugging the dollars, so prices ("$3 to $5") stay text.
    dollarmath_plugin(md, allow_space=False, allow_digits=False, double_inline=True, renderer=_render_math)
    for rule in ("math_block", "math_block_label"):
        md.add_render_rule(rule, _display_math)
    md.add_render_rule("math_inline_double", _display_math_in_paragraph)
    md.core.ruler.push("table_alignment_classes", _table_alignment_to_classes)
    return md


_parser = _build_parser()


_cleaner = nh3.Cleaner(
    tags=set(ALLOWED_TAGS),
    clean_content_tags={"script", "style"},
    attributes={tag: set(attrs) for tag, attrs in ALLOWED_ATTRIBUTES.items()},
    allowed_classes={tag: set(classes) for tag, classes in ALLOWED_CLASSES.items()},
    url_schemes=set(URL_SCHEMES),
    link_rel="noopener noreferrer",
    strip_comments=True,
)


def sanitize(fragment):
    return _cleaner.clean(fragment)


@functools.lru_cache(maxsize=1024)
def render_markdown(text):
    """Markdown source -> sanitised HTML string. Cached per text: the bank is
    small and the same prompt is rendered on every page view."""
    if not text:
        return ""
    return sanitize(_parser.render(text))


def pygments_css():
    """The stylesheet for highlighted code (static/css/pygments.css is generated from this)."""
    return HtmlFormatter(style="default").get_style_defs(".highlight")
