"""manage.py gpu_worker refuses to start without a CUDA device that CuPy can see."""

import importlib.util

import pytest
from django.core.management import CommandError, call_command


@pytest.mark.skipif(importlib.util.find_spec("cupy") is not None, reason="CuPy is installed here")
def test_refuses_without_cupy(db):
    with pytest.raises(CommandError, match="CuPy is not installed"):
        call_command("gpu_worker")
