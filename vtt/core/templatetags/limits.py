"""``{% limit "vtt.table.services.CHAT_MAX" %}``: a form's ``maxlength``, ``min`` or ``max`` read
from the constant the service checks, so a page never carries a second copy of a limit."""

from django import template
from django.utils.module_loading import import_string

register = template.Library()


@register.simple_tag
def limit(path: str) -> int:
    """The named limit (a module-level whole number under ``vtt`` or ``systems``)."""
    if not path.startswith(("vtt.", "systems.")):
        raise template.TemplateSyntaxError(f"limit: {path} is not a project constant")
    value = import_string(path)
    if isinstance(value, bool) or not isinstance(value, int):
        raise template.TemplateSyntaxError(f"limit: {path} is not a whole number")
    return value
