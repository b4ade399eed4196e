"""'Faster than N% of accepted submissions' and its distribution chart."""

from django.template.loader import render_to_string

from leaderboards import services
from submissions.models import Purpose


def test_percentile_against_other_peoples_best(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    for index, speedup in enumerate([1.5, 2.0, 3.0, 8.0]):
        make_submission(make_user(f"other{index}"), exercise, speedup=speedup)
    me = make_user("me")
    make_submission(me, exercise, speedup=100.0)  # my own best is not part of "others"
    mine = make_submission(me, exercise, speedup=4.0)

    result = services.standing(mine)
    assert result["faster_than_pct"] == 75
    assert result["compared_with"] == 4


def test_percentile_is_rounded_down_and_per_hardware(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    make_submission(make_user("a"), exercise, speedup=1.5)
    make_submission(make_user("b"), exercise, speedup=5.0)
    make_submission(make_user("c"), exercise, speedup=6.0)
    make_submission(make_user("gpu"), exercise, speedup=0.5, hardware="NVIDIA L4")
    mine = make_submission(make_user("me"), exercise, speedup=2.0)

    assert services.standing(mine)["faster_than_pct"] == 33  # 1 of 3, not rounded up to 34


def test_first_solver_has_no_percentile(make_user, make_exercise, make_submission):
    mine = make_submission(make_user("me"), make_exercise(), speedup=2.0)

    result = services.standing(mine)
    assert result["faster_than_pct"] is None
    assert [bin["count"] for bin in result["distribution"]] == [1]
    html = render_to_string("leaderboards/_standing.html", {"submission": mine})
    assert "No one else has an accepted solution on the CPU sandbox yet: the board is yours." in html


def test_distribution_bins_log_speedups_and_marks_the_submission(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    for index, speedup in enumerate([1.05, 1.1, 2.05, 8.5]):
        make_submission(make_user(f"other{index}"), exercise, speedup=speedup)
    mine = make_submission(make_user("me"), exercise, speedup=2.1)

    bins = services.standing(mine)["distribution"]
    # Half-doubling bins from 1x up to the one holding 8.5x (8x..11.3x): seven bins, gaps filled with zeros.
    assert [bin["count"] for bin in bins] == [2, 0, 2, 0, 0, 0, 1]
    assert [bin["highlight"] for bin in bins].index(True) == 2
    assert bins[0]["low"] == 1.0 and abs(bins[0]["high"] - 2**0.5) < 1e-12
    assert [bin["label"] for bin in bins[:3]] == ["1×–1.41×", "1.41×–2×", "2×–2.83×"]
    assert sum(bin["count"] for bin in bins) == 5


def test_an_empty_board_has_an_empty_histogram(make_exercise):
    assert services.distribution(make_exercise().question_id, "cpu") == []


def test_standing_partial_says_faster_than_and_carries_chart_data(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    make_submission(make_user("other"), exercise, speedup=1.5)
    mine = make_submission(make_user("me"), exercise, speedup=3.0)

    html = render_to_string("leaderboards/_standing.html", {"submission": mine})
    assert "Faster than 100% of accepted submissions" in html
    assert f'id="standing-data-{mine.pk}"' in html
    assert f'data-standing-chart="standing-data-{mine.pk}"' in html
    assert "vendor/chartjs/chart.umd.min.js" in html


def test_standing_partial_is_empty_for_assessments(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    submission = make_submission(make_user("me"), exercise, speedup=3.0, purpose=Purpose.ASSESSMENT)

    assert render_to_string("leaderboards/_standing.html", {"submission": submission}).strip() == ""


def test_the_chart_reaches_down_to_a_submission_slower_than_every_best(make_user, make_exercise, make_submission):
    exercise = make_exercise()
    make_submission(make_user("other"), exercise, speedup=4.0)
    me = make_user("me")
    make_submission(me, exercise, speedup=100.0)  # my best is on the board...
    mine = make_submission(me, exercise, speedup=1.5)  # ...this one is not

    bins = services.standing(mine)["distribution"]
    assert bins[0]["low"] == 2**0.5 and bins[0]["highlight"] and bins[0]["count"] == 0
    assert len(bins) == 13 and bins[-1]["count"] == 1  # 1.41x up to the bin holding 100x (90.5x..128x)
    assert services.standing(mine)["faster_than_pct"] == 0


def test_the_partial_says_which_grading_the_board_counts(make_user, make_exercise, make_submission):
    exercise, me, code = make_exercise(), make_user("me"), "def transform(x):\n    return x * 2\n"
    lucky = make_submission(me, exercise, speedup=12.0, code=code)
    middle = make_submission(me, exercise, speedup=5.0, code=code)
    make_submission(me, exercise, speedup=4.0, code=code)
    other = make_submission(me, exercise, speedup=3.0)

    def said(submission):
        return " ".join(render_to_string("leaderboards/_standing.html", {"submission": submission}).split())

    assert "The board counts this code at <strong>5.00×</strong> for you, the middle of its 3 gradings" in said(lucky)
    assert "This grading is the one the board counts for you: the middle of this code's 3 gradings." in said(middle)
    assert (
        "The board counts another of your programs for you, at <strong>5.00×</strong> (the middle of its 3 gradings)."
        in said(other)
    )
    assert services.counted_for(other) == {"speedup": 5.0, "gradings": 3, "is_this": False, "same_code": False}


def test_the_partial_says_nothing_of_counting_for_a_lone_grading(make_user, make_exercise, make_submission):
    mine = make_submission(make_user("me"), make_exercise(), speedup=3.0)
    assert "standing-counted" not in render_to_string("leaderboards/_standing.html", {"submission": mine})
