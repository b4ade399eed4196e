"""stats.py: the numbers behind a speedup and its interval, pinned exactly."""

import numpy as np
import pytest

from grader.harness import stats

#: Literal, not read from stats: a change to any of them changes every interval
#: already shown, so it must be deliberate (and this test updated with it).
RESAMPLES, SEED = 4000, 20240917
REFERENCE = [0.41, 0.39, 0.52, 0.40, 0.44, 0.61, 0.38, 0.43, 0.40, 0.47, 0.42]
SUBMISSION = [0.101, 0.097, 0.150, 0.099, 0.104, 0.121, 0.096, 0.180, 0.098, 0.110, 0.102]
ECHOES = [0.010, 0.011, 0.009, 0.030, 0.010, 0.012, 0.010, 0.009, 0.011, 0.035, 0.010]


def percentile_bootstrap(ratios_of, pairs, confidence):
    """The interval as documented: resample whole pairs (indices drawn with the
    fixed seed), take the median pair ratio of each resample, then the
    central `confidence` share of those medians. ratios_of(picks) gives the
    pair ratios of every resample, one row each."""
    picks = np.random.default_rng(SEED).integers(0, pairs, size=(RESAMPLES, pairs))
    medians = np.median(ratios_of(picks), axis=1)
    tail = (1 - confidence) / 2 * 100
    return tuple(np.percentile(medians, [tail, 100 - tail]))


def test_interval_is_the_percentile_bootstrap_of_the_median_pair_ratio():
    reference, submission = np.array(REFERENCE), np.array(SUBMISSION)
    for confidence in (0.95, 0.8):
        expected = percentile_bootstrap(lambda picks: reference[picks] / submission[picks], len(reference), confidence)
        assert stats.speedup_interval(REFERENCE, SUBMISSION, confidence=confidence) == pytest.approx(
            expected, rel=1e-12
        )
    assert stats.speedup(REFERENCE, SUBMISSION) == pytest.approx(np.median(reference / submission), rel=1e-12)


def ratios_with(reference, submission, echoes):
    """Pair ratios per resample, net of the level of that resample's echoes, floored at
    5% of the raw time and at the jitter of every echo (a property of the harness at this size)."""
    jitter = stats.overhead_jitter(echoes)

    def ratios(picks):
        level = stats.overhead_level(echoes[picks])[..., np.newaxis]  # one per resample
        net = [
            np.minimum(np.maximum(np.maximum(side[picks] - level, 0.05 * side[picks]), jitter), side[picks])
            for side in (reference, submission)
        ]
        return net[0] / net[1]

    return ratios


def test_interval_with_echoes_recomputes_the_level_per_resample_but_keeps_the_jitter():
    # 30 pairs with echoes of their own: enough distinct resampled medians that the seed and
    # the number of resamples show in the interval (with a few pairs it often lands on a tie).
    rng = np.random.default_rng(30)
    submission, reference = 0.1 * rng.lognormal(0, 0.05, 30), 0.3 * rng.lognormal(0, 0.05, 30)
    echoes = 0.02 * rng.lognormal(0, 0.2, 30)
    ratios = ratios_with(reference, submission, echoes)

    expected = percentile_bootstrap(ratios, len(reference), 0.95)
    assert stats.speedup_interval(reference, submission, echoes) == pytest.approx(expected, rel=1e-12)
    assert stats.speedup(reference, submission, echoes) == pytest.approx(np.median(ratios(np.arange(30))), rel=1e-12)
    assert stats.speedup_interval(REFERENCE, SUBMISSION, ECHOES) == pytest.approx(
        percentile_bootstrap(ratios_with(np.array(REFERENCE), np.array(SUBMISSION), np.array(ECHOES)), 11, 0.95),
        rel=1e-12,
    )


def test_an_outlier_pair_does_not_drag_the_interval():
    """The bootstrap statistic is the median: one pair stalled 50x moves a mean
    a long way and the median hardly at all."""
    reference = [0.4] * 14 + [20.0]
    submission = [0.1] * 15
    low, high = stats.speedup_interval(reference, submission)
    assert low == pytest.approx(4.0) and high == pytest.approx(4.0)


def test_three_pairs_are_enough_for_an_interval():
    assert stats.speedup_interval([0.3, 0.4, 0.5], [0.1, 0.1, 0.1]) == pytest.approx((3.0, 5.0))


def test_overhead_level_leaves_out_echoes_above_twice_the_lower_quartile():
    # [level, why]: the lower quartile is interpolated as numpy's default percentile does.
    assert stats.overhead_level([1.0, 1.0, 2.0, 2.0, 4.0]) == pytest.approx(1.5)  # exactly 2x the quartile stays in
    assert stats.overhead_level([1.0, 1.0, 2.0, 2.5, 4.0]) == pytest.approx(1.0)  # 2.5x is a stall
    assert stats.overhead_level([1.0, 2.0, 3.0, 3.5, 10.0]) == pytest.approx(2.5)  # the quartile, not the minimum
    assert stats.overhead_level([1.0, 2.0, 3.0, 4.05, 10.0]) == pytest.approx(2.0)  # the 25th percentile exactly


def test_overhead_jitter_is_the_spread_of_the_faster_half():
    assert stats.overhead_jitter([0.0, 0.1, 0.4, 1.0, 2.0, 3.0]) == pytest.approx(0.1)  # 0.0, 0.1, 0.4 around 0.1
    assert stats.overhead_jitter([3.0, 0.4, 0.0, 2.0, 0.1, 1.0]) == pytest.approx(0.1)  # in any order
    rows = np.array([[0.0, 0.1, 0.4, 1.0, 2.0, 3.0], [0.0, 0.2, 0.8, 2.0, 4.0, 6.0]])
    assert stats.overhead_jitter(rows) == pytest.approx([0.1, 0.2])


def test_net_time_floors():
    overhead = [0.10] * 5
    assert stats.net_median([0.30] * 5, overhead) == pytest.approx(0.20)  # raw minus the level
    assert stats.net_median([0.101] * 5, overhead) == pytest.approx(0.05 * 0.101)  # a fraction of the raw time
    jittery = [0.08, 0.09, 0.10, 0.11, 0.12]  # level 0.10, jitter 0.01
    assert stats.net_median([0.1005] * 5, jittery) == pytest.approx(0.01)
    # Never above the raw time, however jittery the echoes: the call took no longer than that.
    assert stats.net_median([0.005] * 5, jittery) == pytest.approx(0.005)
    assert stats.net_median([0.3, 0.2, 0.1]) == 0.2  # no overhead: the plain median


def test_scaling_exponent_ignores_zero_times_and_sizes():
    assert stats.scaling_exponent([1000, 2000], [1e-3, 4e-3]) == pytest.approx(2.0)  # two sizes are enough
    assert stats.scaling_exponent([1, 2], [1e-6, 2e-6]) == pytest.approx(1.0)  # size 1 is a size
    assert stats.scaling_exponent([1000, 2000, 4000], [0.0, 2e-6, 4e-6]) == pytest.approx(1.0)
    assert stats.scaling_exponent([0, 1000, 2000], [1e-6, 1e-3, 2e-3]) == pytest.approx(1.0)
    assert stats.scaling_exponent([1000, 1000, 2000], [1e-3, 1e-3, 0.0]) is None


def test_pairs_must_match():
    with pytest.raises(ValueError, match="timings must come in pairs"):
        stats.speedup([1.0, 2.0, 3.0], [1.0, 2.0])
    with pytest.raises(ValueError, match="one overhead timing per pair"):
        stats.speedup([1.0, 2.0, 3.0], [1.0, 2.0, 3.0], [0.1])


def _grading_in_runs(rng, runs, pairs_per_run, between, within):
    """Simulated timings of one grading: each run (a fresh pair of processes)
    draws its own level (log-normal, `between`), each pair its own noise."""
    reference, submission, labels = [], [], []
    for run in range(runs):
        level = np.exp(between * rng.standard_normal())
        for _ in range(pairs_per_run):
            reference.append(np.exp(within * rng.standard_normal()))
            submission.append(0.01 * level * np.exp(within * rng.standard_normal()))
            labels.append(run)
    return reference, submission, labels


def test_one_run_label_gives_the_pairs_interval():
    rng = np.random.default_rng(3)
    reference, submission, _ = _grading_in_runs(rng, 1, 12, 0.0, 0.05)
    assert stats.speedup_interval(reference, submission, runs=[0] * 12) == stats.speedup_interval(reference, submission)
    # The same draws, not merely the same interval: a bootstrap median takes few values,
    # so two different draws can give one interval.
    one_run = stats._resampled_pairs(np.random.default_rng(1), 12, [0] * 12)
    assert (one_run == stats._resampled_pairs(np.random.default_rng(1), 12, None)).all()


def test_runs_resample_processes_then_pairs():
    """Pairs timed by processes that drew different levels: the two-stage
    interval is far wider than the pairs-only one, which speaks only of the
    scatter between pairs."""
    reference, submission, runs = _grading_in_runs(np.random.default_rng(5), 5, 4, 0.15, 0.02)
    pairs_low, pairs_high = stats.speedup_interval(reference, submission)
    low, high = stats.speedup_interval(reference, submission, runs=runs)
    assert high - low > 1.5 * (pairs_high - pairs_low)
    assert low <= stats.speedup(reference, submission) <= high


def test_runs_need_not_be_contiguous_and_must_label_every_pair():
    reference, submission = [1.0] * 6, [0.01, 0.02, 0.01, 0.02, 0.01, 0.02]
    assert stats.speedup_interval(reference, submission, runs=[0, 1, 0, 1, 0, 1]) is not None
    with pytest.raises(ValueError):
        stats.speedup_interval(reference, submission, runs=[0, 1])


def test_five_runs_of_three_pairs_cover_the_next_grading():
    """The design the harness uses at the headline size (supervisor.HEADLINE_RUNS):
    where processes differ by 10% and pairs by 5%, at least 18 of 20 simulated
    gradings' intervals hold the true speedup; one run of 15 pairs holds it in
    far fewer (the interval then speaks only of the pairs of one process)."""
    rng = np.random.default_rng(11)
    in_runs = in_one = 0
    for _ in range(20):
        reference, submission, runs = _grading_in_runs(rng, 5, 3, 0.10, 0.05)
        low, high = stats.speedup_interval(reference, submission, runs=runs)
        in_runs += low <= 100 <= high
        reference, submission, _ = _grading_in_runs(rng, 1, 15, 0.10, 0.05)
        low, high = stats.speedup_interval(reference, submission)
        in_one += low <= 100 <= high
    assert in_runs >= 18
    assert in_one <= 10


def test_the_reported_interval_adds_the_hosts_drift_in_quadrature():
    """Each side of the report's interval is the bootstrap's side and the host's
    between-gradings term at the same confidence, added in quadrature in logarithms."""
    point = stats.speedup(REFERENCE, SUBMISSION, ECHOES)
    low, high = stats.speedup_interval(REFERENCE, SUBMISSION, ECHOES)
    host = 1.959963984540054 * stats.BETWEEN_GRADINGS_SD
    expected = (
        point * np.exp(-np.hypot(np.log(point / low), host)),
        point * np.exp(np.hypot(np.log(high / point), host)),
    )
    assert stats.reported_interval(REFERENCE, SUBMISSION, ECHOES) == pytest.approx(expected, rel=1e-12)
    # Pairs that all agree leave only the host's term.
    assert stats.reported_interval([1.0] * 5, [0.5] * 5) == pytest.approx((2 * np.exp(-host), 2 * np.exp(host)))
    assert stats.reported_interval([1.0, 2.0], [1.0, 2.0]) is None


def test_the_reported_interval_covers_gradings_whose_level_drifts():
    """Gradings that each sit at their own level of the host (log-normal, the
    between-gradings term) beyond their runs' and pairs' noise: the report's
    interval holds the true speedup in at least 18 of 20, the bootstrap's alone
    in far fewer."""
    rng = np.random.default_rng(5)
    reported = bootstrap_only = 0
    for _ in range(20):
        reference, submission, runs = _grading_in_runs(rng, 5, 3, 0.02, 0.02)
        drift = np.exp(stats.BETWEEN_GRADINGS_SD * rng.standard_normal())
        submission = [seconds * drift for seconds in submission]
        low, high = stats.reported_interval(reference, submission, runs=runs)
        reported += low <= 100 <= high
        low, high = stats.speedup_interval(reference, submission, runs=runs)
        bootstrap_only += low <= 100 <= high
    assert reported >= 18
    assert bootstrap_only <= 14


def test_each_place_draws_all_its_pairs_from_one_run():
    """The second stage resamples within the run drawn for a place: a row never
    mixes two runs' pairs in one place, every run can be drawn, and any pair of it."""
    runs = [0, 0, 0, 1, 1, 1, 2, 2, 2]
    picks = stats._resampled_pairs(np.random.default_rng(1), len(runs), runs)
    assert picks.shape == (stats.BOOTSTRAP_RESAMPLES, len(runs))
    labels = np.asarray(runs)[picks]
    for place in range(3):
        block = labels[:, 3 * place : 3 * place + 3]
        assert (block == block[:, :1]).all()
    assert set(np.unique(labels[:, 0])) == {0, 1, 2}
    # And within the drawn run, any of its pairs: a place can hold every pair of every run.
    assert set(np.unique(picks[:, 0])) == set(range(len(runs)))
