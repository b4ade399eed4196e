from django import template
from django.utils.safestring import mark_safe

from questions.rendering import render_markdown

register = template.Library()


@register.filter(name="markdown")
def markdown_filter(text):
    """{{ text|markdown }}: author Markdown -> sanitised HTML (see questions.rendering)."""
    return mark_safe(render_markdown(text or ""))  # noqa: S308 - sanitised by nh3 in render_markdown
