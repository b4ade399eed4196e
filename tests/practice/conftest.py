"""The practice pages are tested on the small bank the questions tests write (tests/questions/conftest.py)."""

from tests.questions.conftest import bank, fake_validation, load, loaded_bank, small_bank  # noqa: F401
