"""One unit system and one format per kind of figure: the graded message, the
submission page, the leaderboard and the hiring team's pages write a number alike."""

from django.template import Context, Template

from grader.harness import feedback


def render(source, **context):
    return Template(source).render(Context(context))


def test_the_message_and_the_page_write_memory_and_speedup_alike():
    memory, reference = 51_200_000, 51_200_000
    message = feedback.accepted_message(3, 2, 8000, 40.94, [38.2, 44.1], memory, reference, ["time", "memory"])
    assert "40.9× faster than the reference at size 8,000 (95% CI 38.2–44.1× faster)" in message
    assert "peak memory 48.8 MiB vs 48.8 MiB" in message
    page = render("{{ m|mib }} {{ s|times }} {{ ci|interval }}", m=memory, s=40.94, ci=[38.2, 44.1])
    assert page == "48.8 MiB 40.9× 38.2–44.1×"


def test_filters_are_builtin_and_say_when_a_figure_is_missing():
    assert render("{{ m|mib }} {{ s|seconds }} {{ x|ratio:y }}", m=None, s=0.000273, x=1, y=4) == "– 273 µs 0.250×"
    assert render("{% interval_of 1.5 2.25 %}") == "1.50–2.25×"
    assert feedback.speed_phrase(0.5) == "2.00× slower than"


def test_speedups_keep_three_digits_and_never_an_exponent():
    assert [feedback.times(value) for value in (6, 25, 0.52, 40.94, 123.4, 1234.5)] == [
        "6.00×",
        "25.0×",
        "0.520×",
        "40.9×",
        "123×",
        "1,234×",
    ]


def test_fractions_of_a_roof_keep_two_figures_below_one_percent():
    assert [feedback.percent(value) for value in (0.84, 2.0, 0.01, 0.0099, 0.0016, 0.00012)] == [
        "84%",
        "200%",
        "1%",
        "0.99%",
        "0.16%",
        "0.012%",
    ]
    assert render("{{ f|percent }} {{ g|percent }}", f=0.0016, g=None) == "0.16% –"


def test_rates_keep_three_figures_without_an_exponent():
    """A GPU's bandwidth is thousands of GB/s: '4,830 GB/s', never '4.83e+03 GB/s'."""
    values = (4834.2, 50000.0, 999.6, 20.63, 0.0375, 1234567.0)
    assert [feedback.three_figures(value) for value in values] == [
        "4,830",
        "50,000",
        "1,000",
        "20.6",
        "0.0375",
        "1,230,000",
    ]
    assert render("{{ r|rate:'GB/s' }} {{ m|rate:'GB/s' }}", r=4834.2, m=None) == "4,830 GB/s –"


def test_a_slower_figures_interval_is_written_in_the_same_words():
    """Issue 32, item 11: '1.38x slower ... (95% CI 0.601-1.46x)' mixed a slower-than factor with a
    speedup interval."""

    def message(speedup, ci):
        return feedback.accepted_message(1, 0, 1000, speedup, ci, 1, 1, ["time"])

    assert "1.38× slower than the reference at size 1,000 (95% CI from 1.66× slower to 1.46× faster)" in message(
        1 / 1.38, [0.601, 1.46]
    )
    assert "2.00× slower than the reference at size 1,000 (95% CI 1.82–2.22× slower)" in message(0.5, [0.45, 0.55])
