from django.utils.functional import SimpleLazyObject

from .bank_version import bank_version as current_bank_version


def bank_version(request):
    """`bank_version` in every template, for {% cache %} keys; read only when a template uses it."""
    return {"bank_version": SimpleLazyObject(current_bank_version)}
