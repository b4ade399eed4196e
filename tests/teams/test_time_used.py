"""Time used reads right at every scale: seconds are not rounded down to '0 min'."""

from datetime import timedelta

import pytest

from teams.templatetags.teams_tags import duration_minutes


@pytest.mark.parametrize(
    "elapsed, shown",
    [
        (timedelta(seconds=50), "50 s"),
        (timedelta(minutes=25), "25 min"),
        (timedelta(minutes=25, seconds=10), "25 min 10 s"),
        (timedelta(hours=1, minutes=5, seconds=59), "1 h 05 min"),
        (None, "–"),
    ],
)
def test_time_used(elapsed, shown):
    assert duration_minutes(elapsed) == shown
