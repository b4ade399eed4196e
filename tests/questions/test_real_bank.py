"""The real bank in questions/bank/ loads (content is written separately; this
checks it is all valid and big enough)."""
import pytest
from django.core.management import call_command

from questions.loader import default_bank_dir
from questions.models import Kind, Question


@pytest.mark.django_db
def test_real_bank_loads():
    call_command("load_bank", path=str(default_bank_dir()), skip_validation=True)
    live = Question.objects.live()
    assert live.filter(kind=Kind.CONCEPT).count() >= 15
    assert live.filter(kind=Kind.NUMERIC).count() >= 12
