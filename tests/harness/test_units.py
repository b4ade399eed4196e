"""Unit tests of the harness's pure parts: statistics, policy, comparison, codec."""

import errno
import fcntl
import mmap
import os
import threading
import time

import numpy as np
import pytest

from grader.harness import compare, imports, ipc, stats

TOLERANCE = {"rtol": 1e-9, "atol": 0.0}


# -- statistics -----------------------------------------------------------------


def test_speedup_is_the_median_pair_ratio():
    reference = [10.0, 11.0, 9.0, 100.0, 10.5]
    submission = [2.0, 2.2, 1.8, 2.1, 50.0]  # pair ratios 5, 5, 5, 47.6, 0.21: outliers in either side cancel
    assert stats.speedup(reference, submission) == pytest.approx(5.0)


def test_a_slow_spell_that_hits_both_members_of_a_pair_cancels():
    """Each pair runs at its own machine speed (1x or 1.8x slower, drawn at
    random) with a little independent noise per call; the true speedup is 40
    whatever the mix of speeds."""
    rng = np.random.default_rng(3)
    for slow_share in (0.3, 0.5, 0.7):
        slowdown = np.where(rng.random(15) < slow_share, 1.8, 1.0)
        submission = 0.01 * slowdown * rng.lognormal(0.0, 0.02, 15)
        reference = 0.4 * slowdown * rng.lognormal(0.0, 0.02, 15)
        assert stats.speedup(reference, submission) == pytest.approx(40.0, rel=0.03)
        low, high = stats.speedup_interval(reference, submission)
        assert 38.0 <= low <= high <= 42.0  # the spells do not widen the interval either


def test_interval_is_deterministic_and_contains_the_truth():
    rng = np.random.default_rng(7)
    true_speedup = 4.0
    hits, widths = 0, []
    for _ in range(40):
        submission = rng.lognormal(np.log(0.01), 0.1, size=15)
        reference = submission * true_speedup * rng.lognormal(0.0, 0.1, size=15)
        low, high = stats.speedup_interval(reference, submission)
        assert (low, high) == stats.speedup_interval(reference, submission)
        assert low <= stats.speedup(reference, submission) <= high
        hits += low <= true_speedup <= high
        widths.append(np.log(high / low))
    assert hits >= 32  # a 95% interval; bootstrap intervals run a little narrow on 15 pairs
    # ...and no wider than the noise warrants: the median of 15 ratios with 10% noise has a
    # standard error near 3%, so a 95% interval spans about +-6% (an infinite one would hit every time).
    assert 0.06 < np.median(widths) < 0.18 and max(widths) < 0.3


def test_interval_needs_three_pairs():
    assert stats.speedup_interval([1.0, 2.0], [1.0, 2.0]) is None
    with pytest.raises(ValueError):
        stats.speedup_interval([1.0, 2.0, 3.0], [1.0, 2.0])


def test_overhead_level_is_the_median_of_the_echoes_that_are_not_stalls():
    """Per row: echoes above twice the lower quartile are stalls and left out; the
    level is the plain median of the rest (both middle values averaged when even)."""
    assert stats.overhead_level([1.0, 1.2, 1.1, 9.0]) == pytest.approx(1.1)  # 9.0 is a stall
    assert stats.overhead_level([1.0, 1.2, 1.4, 1.6]) == pytest.approx(1.3)
    assert stats.overhead_level([2.0]) == pytest.approx(2.0)
    rng = np.random.default_rng(11)
    for pairs in (1, 2, 5, 6, 15):
        echoes = rng.lognormal(0.0, 0.4, size=(300, pairs)) * np.where(rng.random((300, pairs)) < 0.2, 6.0, 1.0)
        lower_quartile = np.percentile(echoes, 25, axis=-1, keepdims=True)
        expected = np.nanmedian(np.where(echoes <= 2.0 * lower_quartile, echoes, np.nan), axis=-1)
        assert np.array_equal(stats.overhead_level(echoes), expected)


def test_timing_stops_once_the_interval_is_within_the_bound():
    """Five steady pairs put the interval within 5% of a 40x speedup; the same
    pairs with one ratio 30% off do not, nor do two pairs (no interval yet)."""
    submission = [0.010, 0.0101, 0.0099, 0.0100, 0.0102]
    reference = [0.400, 0.404, 0.396, 0.401, 0.407]
    assert stats.precise_enough(reference, submission, None, 0.05) is True
    assert stats.precise_enough(reference, submission, None, 0.001) is False
    assert stats.precise_enough(reference[:2], submission[:2], None, 0.5) is False
    unsteady = [0.400, 0.404, 0.396, 0.401, 0.52]
    low, high = stats.speedup_interval(unsteady, submission)
    assert not stats.precise_enough(unsteady, submission, None, 0.05)
    # The bound is a half-width, relative to the speedup: this interval passes at its own half-width and not below.
    half_width = (high - low) / 2 / stats.speedup(unsteady, submission)
    assert stats.precise_enough(unsteady, submission, None, half_width * 1.001)
    assert not stats.precise_enough(unsteady, submission, None, half_width * 0.999)


def test_an_interval_exactly_at_the_bound_is_tight_enough():
    """Ratios 4, 4, 4, 4, 5: the median is 4 and the interval [4, 5] (a resampled
    median is 5 only when three of five draws are the 5: 5.8%, past the 97.5th
    percentile's tail), a half-width of exactly 12.5% of the speedup."""
    reference, submission = [4.0, 4.0, 4.0, 4.0, 5.0], [1.0] * 5
    assert stats.speedup_interval(reference, submission) == (4.0, 5.0)
    assert stats.precise_enough(reference, submission, None, 0.125) is True
    assert stats.precise_enough(reference, submission, None, 0.124) is False


def test_the_stopping_rule_reads_net_times_when_there_is_an_echo():
    """With the harness's transfer overhead (the echoes) taken out, the same raw
    pairs are a 40x speedup with ratios that scatter far more than the raw ones."""
    echo = [0.008] * 6
    submission = [0.0100, 0.0105, 0.0095, 0.0100, 0.0102, 0.0098]  # net 2.0, 2.5, 1.5, 2.0, 2.2, 1.8 ms
    reference = [0.088, 0.088, 0.088, 0.088, 0.088, 0.088]
    assert stats.precise_enough(reference, submission, None, 0.06)
    assert not stats.precise_enough(reference, submission, echo, 0.06)


def test_the_rule_replayed_names_every_count_of_pairs_that_meets_it():
    """Ratios 5, 4, 5 then 4s: three pairs already sit within ±10% of the median
    (5), the next ones do not until enough 4s outvote the 5s; met at 8, lost
    again at 9 (a 5 can still be the resampled median), then for good. The
    supervisor stops at the first count it asks from; a replay sees them all.
    With the echoes taken out the ratios are 9, 7, 9 then 7s, and three pairs
    are no longer within the bound."""
    reference = [5.0, 4.0, 5.0] + [4.0] * 9
    submission = [1.0] * 12
    assert list(stats.counts_meeting_the_rule(reference, submission, None, 0.10, 3, 12)) == [3, 8, 10, 11, 12]
    assert list(stats.counts_meeting_the_rule(reference, submission, None, 0.10, 4, 11)) == [8, 10, 11]
    assert list(stats.counts_meeting_the_rule(reference, submission, [0.5] * 12, 0.10, 3, 12)) == [8, 10, 11, 12]


def test_scaling_exponent_fits_power_laws():
    sizes = [1000, 10_000, 100_000]
    assert stats.scaling_exponent(sizes, [2e-9 * n for n in sizes]) == pytest.approx(1.0)
    assert stats.scaling_exponent(sizes, [3e-12 * n * n for n in sizes]) == pytest.approx(2.0)
    assert stats.scaling_exponent([0, 1000], [1e-6, 1e-3]) is None
    assert stats.scaling_exponent([5000], [1.0]) is None


# -- policy ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "source, fragment",
    [
        ("import os\n", "`os`"),
        ("from subprocess import run\n", "`subprocess`"),
        ("import numpy.ctypeslib\n", "`numpy.ctypeslib`"),
        ("import scipy\n", "`scipy`"),
        ("x = eval('1')\n", "`eval`"),
        ("f = open('/etc/passwd')\n", "`open`"),
        ("__import__('os')\n", "`__import__`"),
        ("k = ().__class__.__subclasses__()\n", "`.__subclasses__`"),
        ("import numpy as np\np = np.zeros(3).ctypes\n", "`.ctypes`"),
        ("import numpy as np\nnp.f2py.os.system('id')\n", "`.system`"),
        ("from . import helper\n", "relative imports"),
    ],
)
def test_policy_rejects(source, fragment):
    problem = imports.check_source(source + "def transform(x):\n    return x\n", ["numpy", "math"], "transform")
    assert problem is not None and problem.verdict == "rejected"
    assert fragment in problem.message
    assert problem.message.startswith(f"Line {source.count(chr(10))}:")


def test_policy_accepts_ordinary_code_and_finds_entry_point():
    source = (
        "import math\nimport numpy as np\nfrom functools import lru_cache\n\n"
        "class Helper:\n    def __init__(self):\n        super().__init__()\n\n"
        "def transform(x):\n    return np.sqrt(x) + math.pi\n"
    )
    assert imports.check_source(source, ["numpy"], "transform") is None
    assert imports.check_source("import numpy as np\ntransform = np.sqrt\n", ["numpy"], "transform") is None
    missing = imports.check_source("def other(x):\n    return x\n", ["numpy"], "transform")
    assert missing.verdict == "runtime_error"
    assert missing.message == "Your code does not define a function named `transform`."
    assert missing.hint == imports.MISSING_ENTRY_POINT_HINT


@pytest.mark.parametrize(
    ("source", "meant"),
    [
        ("def transfrom(x):\n    return x\n", "transfrom"),  # a typo
        ("def other(x):\n    return x\n\ndef Transform(x):\n    return x\n", "Transform"),  # another case
        ("def TRANSFORM(x):\n    return x\n", "TRANSFORM"),  # too far for difflib, the same name folded
        ("if True:\n    transform_fast = lambda x: x\n", "transform_fast"),  # bound inside a block
    ],
)
def test_a_missing_entry_point_names_the_function_probably_meant(source, meant):
    problem = imports.check_source(source, ["numpy"], "transform")
    assert (
        problem.message
        == f"Your code does not define a function named `transform`. It defines `{meant}`: rename it `transform`."
    )


def test_forbidden_modules_win_over_the_exercise_list():
    problem = imports.check_source("import os\ndef transform(x):\n    return x\n", ["os", "numpy"], "transform")
    assert problem.verdict == "rejected"


def test_runtime_import_guard():
    guarded = imports.guarded_builtins(["numpy"])
    assert "eval" not in guarded and "open" not in guarded and "getattr" not in guarded
    assert guarded["__import__"]("numpy") is np
    with pytest.raises(ImportError, match="'os' is not allowed"):
        guarded["__import__"]("os")
    with pytest.raises(ImportError):
        guarded["__import__"]("numpy", fromlist=("ctypeslib",))
    namespace = {"__builtins__": guarded}
    with pytest.raises(ImportError):
        exec("import subprocess", namespace)
    with pytest.raises(ImportError, match="'_strptime' is not allowed"):
        exec("import _strptime", namespace)


def test_a_library_importing_from_c_under_the_submissions_line_is_held_to_the_forbidden_list_only():
    """time.strptime's C code imports _strptime through the calling frame's
    builtins, the submission's: refusing it for not being on the exercise's list
    broke correct code (CuPy's C code did the same on an H200)."""
    namespace = {"__builtins__": imports.guarded_builtins(["numpy", "time"]), "time": time}
    exec("parsed = time.strptime('2026', '%Y')", namespace)
    assert namespace["parsed"].tm_year == 2026
    guarded_import = namespace["__builtins__"]["__import__"]
    with pytest.raises(ImportError, match="'os' is not allowed"):
        exec("guarded_import('os')", {**namespace, "guarded_import": guarded_import})


# -- comparison -----------------------------------------------------------------


def test_nan_matches_only_nan_and_inf_only_same_signed_inf():
    expected = np.array([np.nan, np.inf, -np.inf, 1.0])
    assert compare.compare(expected, expected.copy(), TOLERANCE) is None
    for position, wrong in [(0, 0.0), (1, -np.inf), (2, 1e308), (3, np.nan)]:
        got = expected.copy()
        got[position] = wrong
        mismatch = compare.compare(expected, got, TOLERANCE)
        assert mismatch is not None and mismatch.failure["index"] == [position]


def test_tolerance_and_first_mismatch_details():
    expected = np.arange(12, dtype=float).reshape(3, 4)
    got = expected * (1 + 1e-12)
    assert compare.compare(expected, got, TOLERANCE) is None
    got[1, 2] += 0.5
    got[2, 3] += 0.5
    mismatch = compare.compare(expected, got, TOLERANCE)
    assert mismatch.failure["index"] == [1, 2]
    assert mismatch.failure["expected"] == "6.0" and mismatch.failure["mismatches"] == 2


@pytest.mark.parametrize("rtol, atol", [(1e-12, 0.0), (1e-6, 1e-9), (0.0, 0.0), (0.0, 1e-3), (2.0, 0.0)])
def test_blockwise_float_comparison_agrees_with_isclose_everywhere(rtol, atol):
    """The float64 fast path must say exactly what np.isclose says, on values
    at the edge of the tolerance, specials in either array, and sizes that do
    not divide into blocks."""
    rng = np.random.default_rng(11)
    size = 3 * compare.COMPARE_BLOCK + 17
    specials = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e308, -1e308, 5e-324])
    want = rng.standard_normal(size) * 10.0 ** rng.integers(-300, 300, size)
    want = np.where(rng.random(size) < 0.05, rng.choice(specials, size), want)
    edge = atol + rtol * np.abs(want)
    nudged = want + np.where(rng.random(size) < 0.5, 1, -1) * edge * rng.choice([0.5, 1.0, 1.0 + 1e-15, 2.0], size)
    have = np.where(rng.random(size) < 0.9, nudged, rng.choice(specials, size))
    with np.errstate(all="ignore"):
        expected = ~np.isclose(have, want, rtol=rtol, atol=atol, equal_nan=True)
    tolerance = {"rtol": rtol, "atol": atol}
    assert np.array_equal(compare.mismatches(want, have, tolerance), expected)
    assert np.array_equal(
        compare.mismatches(want.reshape(-1, 1), have.reshape(-1, 1), tolerance), expected.reshape(-1, 1)
    )
    assert expected.any() and not expected.all()  # the data exercises both answers


def test_type_dtype_and_shape_must_match():
    expected = np.zeros(4)
    assert "shape (2, 2)" in compare.compare(expected, np.zeros((2, 2)), TOLERANCE).message
    assert "signed integer" in compare.compare(expected, np.zeros(4, dtype=np.int32), TOLERANCE).message
    assert "a list" in compare.compare(expected, ipc.UnsupportedValue("a list"), TOLERANCE).message
    assert compare.compare(3.0, np.float64(3.0), TOLERANCE) is None
    assert "(item 1 of the tuple)" in compare.compare((np.ones(2), 1), (np.ones(2), 2), TOLERANCE).message


def test_custom_check_overrides_values_not_types():
    def check(expected, got, args):
        return bool(np.allclose(np.sort(expected), np.sort(got))), "not a permutation"

    assert compare.compare(np.array([1.0, 2.0]), np.array([2.0, 1.0]), TOLERANCE, check) is None
    assert compare.compare(np.array([1.0, 2.0]), np.array([2.0, 3.0]), TOLERANCE, check).message == "not a permutation"
    assert compare.compare(np.array([1.0, 2.0]), [2.0, 1.0], TOLERANCE, check).message == (
        "Your function returned a list; expected a numpy.ndarray."
    )


# -- codec ----------------------------------------------------------------------


def _sealed(value):
    arena = ipc.Arena()
    meta = ipc.encode(value, arena)
    return meta, arena, arena.write_memfd("test", seal=True)


def test_codec_round_trip_through_sealed_memfd():
    value = (np.arange(10, dtype=">f8"), np.float32(1.5), 7, float("nan"), None, np.zeros((0, 3)))
    meta, arena, fd = _sealed(value)
    try:
        decoded = ipc.decode(meta, ipc.Buffer.from_sealed_fd(fd, arena.size))
    finally:
        os.close(fd)
    assert np.array_equal(decoded[0], value[0]) and decoded[1] == np.float32(1.5) and decoded[2] == 7
    assert np.isnan(decoded[3]) and decoded[4] is None and decoded[5].shape == (0, 3)
    assert not decoded[0].flags.writeable


def test_an_answer_lies_as_far_into_its_page_as_into_its_cache_line():
    """Failed before: every answer started at a page boundary, so NumPy's large
    arrays (16 bytes into a page) were copied across cache-line offsets, slower
    than the echo's page-aligned blank, and the echo undercounted the
    submission's transfer (docs/benchmarks.md, "Answers copied at their own offset")."""
    storage = np.arange(5000, dtype=np.float64)
    shifted = storage[2:4002]  # 16 bytes further into memory than `storage`
    arena = ipc.Arena()
    first = arena.place(storage[:1000])
    second = arena.place(shifted)
    assert first == storage.ctypes.data % ipc.CACHE_LINE
    assert second % ipc.PAGE == shifted.ctypes.data % ipc.CACHE_LINE and second >= ipc.PAGE
    assert arena.size % ipc.PAGE == 0 and arena.size >= second + shifted.nbytes


def test_an_answer_misaligned_for_its_dtype_lies_at_a_page_boundary_and_round_trips():
    raw = np.zeros(8 * 100 + 1, np.uint8)
    odd = raw[1:].view(np.float64)
    odd[:] = np.arange(100)
    assert not odd.flags.aligned
    meta, arena, fd = _sealed(odd)
    try:
        decoded = ipc.decode(meta, ipc.Buffer.from_sealed_fd(fd, arena.size))
    finally:
        os.close(fd)
    assert meta["offset"] == 0 and np.array_equal(decoded, np.arange(100.0))


def test_an_answer_starting_into_its_page_round_trips():
    storage = np.arange(3000, dtype=np.float64)
    value = (storage[1:2001], np.arange(7, dtype=np.int32))
    meta, arena, fd = _sealed(value)
    try:
        decoded = ipc.decode(meta, ipc.Buffer.from_sealed_fd(fd, arena.size))
    finally:
        os.close(fd)
    assert np.array_equal(decoded[0], value[0]) and np.array_equal(decoded[1], value[1])
    assert decoded[0].flags.aligned


def test_decoder_refuses_unsealed_memfds_and_bad_metadata():
    arena = ipc.Arena()
    meta = ipc.encode(np.ones(4), arena)
    fd = arena.write_memfd("unsealed", seal=False)
    try:
        with pytest.raises(ipc.ProtocolError):
            ipc.Buffer.from_sealed_fd(fd, arena.size)
    finally:
        os.close(fd)
    meta, arena, fd = _sealed(np.ones(4))
    try:
        with pytest.raises(ipc.ProtocolError):
            ipc.Buffer.from_sealed_fd(fd, arena.size + 4096)
        buffer = ipc.Buffer.from_sealed_fd(fd, arena.size)
    finally:
        os.close(fd)
    for bad in [
        dict(meta, dtype="O"),
        dict(meta, dtype="V8"),
        dict(meta, shape=[10**6]),
        dict(meta, offset=-4096),
        dict(meta, offset=ipc.CACHE_LINE),
        dict(meta, offset=4),
        {"t": "pickle"},
    ]:
        with pytest.raises(ipc.ProtocolError):
            ipc.decode(bad, buffer)


def test_a_seal_the_kernel_refuses_for_a_while_is_tried_again_and_the_refusals_counted():
    """F_SEAL_WRITE fails with EBUSY while a writable mapping of the memfd is
    open, as it does when the kernel holds one of its pages for a moment (the
    flake of 4 December): the seal is tried again, and the refusals returned."""
    fd = ipc.spare_result_memfd(ipc.PAGE)
    try:
        mapping = mmap.mmap(fd, ipc.PAGE, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
        threading.Timer(1.5 * ipc.SEAL_RETRY_S, mapping.close).start()
        refusals = ipc.seal_result(fd)
        assert 1 <= refusals < ipc.SEAL_ATTEMPTS
        assert fcntl.fcntl(fd, fcntl.F_GET_SEALS) & ipc.RESULT_SEALS == ipc.RESULT_SEALS
    finally:
        os.close(fd)


def test_a_seal_refused_every_time_fails_with_a_message_that_says_why():
    fd = ipc.spare_result_memfd(ipc.PAGE)
    mapping = mmap.mmap(fd, ipc.PAGE, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
    try:
        with pytest.raises(OSError, match="could not be sealed") as raised:
            ipc.seal_result(fd)
        assert raised.value.errno == errno.EBUSY
        assert not fcntl.fcntl(fd, fcntl.F_GET_SEALS) & fcntl.F_SEAL_WRITE
    finally:
        mapping.close()
        os.close(fd)


def test_a_result_written_into_a_spare_memfd_is_sealed_and_sized_to_the_answer():
    answer = np.arange(1000, dtype=np.float64)
    spare = ipc.spare_result_memfd(3 * answer.nbytes)  # larger than needed: shrunk to the answer
    assert os.fstat(spare).st_blocks * 512 >= 3 * answer.nbytes  # allocated before any write
    arena = ipc.Arena()
    meta = ipc.encode(answer, arena)
    fd = arena.write_memfd("test", seal=True, spare_fd=spare)
    try:
        assert fd == spare and os.fstat(fd).st_size == arena.size
        decoded = ipc.decode(meta, ipc.Buffer.from_sealed_fd(fd, arena.size))
        assert np.array_equal(decoded, answer)
        with pytest.raises(OSError):
            os.pwrite(fd, b"x", 0)
    finally:
        os.close(fd)


def test_a_spare_memfd_is_closed_when_the_answer_has_no_array_bytes():
    spare = ipc.spare_result_memfd(4096)
    arena = ipc.Arena()
    ipc.encode((1.5, None), arena)
    assert arena.write_memfd("test", seal=True, spare_fd=spare) is None
    with pytest.raises(OSError):
        os.fstat(spare)


def test_encoder_refuses_what_is_not_plain_data():
    class Sub(np.ndarray):
        pass

    for value, fragment in [
        ([1.0], "a list"),
        (np.zeros(2).view(Sub), "subclass"),
        (np.array([object()]), "dtype object"),
    ]:
        with pytest.raises(ipc.Unsupported, match=fragment):
            ipc.encode(value, ipc.Arena())


def test_gpu_memory_probe_is_silent_without_nvml():
    try:
        import pynvml  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("pynvml is installed here")
    from grader.harness.gpu import MemoryProbe

    probe = MemoryProbe()
    assert not probe.available and probe.used_bytes() is None


def test_a_syntax_error_is_its_own_verdict_with_the_line():
    problem = imports.check_source("def transform(x):\n    return (x +\n", ["numpy"], "transform")
    assert problem.verdict == "syntax_error" and problem.line == 2
    assert problem.message.startswith("Syntax error at line 2: ")
    indented = imports.check_source("def transform(x):\nreturn x\n", ["numpy"], "transform")
    assert indented.verdict == "syntax_error" and indented.line == 2 and "indented block" in indented.message
