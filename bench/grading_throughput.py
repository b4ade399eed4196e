"""Grading part 4, throughput: a queue of quick-check submissions (honest and wrong
mixed) drained by 1 and by 2 real worker processes: submissions per minute, none lost."""

import tempfile
import time
from pathlib import Path

from bench_stats import rounded
from common import Worker, start_workers, stop_workers, wait_done, wait_until_ready
from grading_setup import bench_environment, current_version, prepare_database, reset_queue, submission_code

THROUGHPUT_EXERCISE = "python-loop-to-numpy"
THROUGHPUT_MIX = [("numpy_honest.py", "accepted"), ("wrong_answer.py", "wrong_answer")]
DRAIN_TIMEOUT_S = 480


def part_throughput(args):
    from submissions.models import Purpose, Submission
    from submissions.services import intake

    count = 20 if args.quick else 50
    environment = bench_environment(args.database_url, args.redis_url)
    prepare_database(environment)
    version = current_version(THROUGHPUT_EXERCISE)
    codes = [(submission_code(THROUGHPUT_EXERCISE, filename), verdict) for filename, verdict in THROUGHPUT_MIX]
    log_dir = Path(tempfile.mkdtemp(prefix="hotpath-grading-bench-"))
    rounds = []
    for worker_count in (1, 2):
        user = reset_queue()
        workers = start_workers(
            [Worker(f"grading-bench-{worker_count}w-{n}", environment, log_dir) for n in range(1, worker_count + 1)]
        )
        try:
            wait_until_ready(workers)
            expected = {}
            started = time.time()
            for number in range(count):
                code, verdict = codes[number % len(codes)]
                submission = intake.create_submission(user, version, code, purpose=Purpose.QUICK_CHECK)
                expected[submission.pk] = verdict
            queued_s = time.time() - started
            seen = wait_done(expected, DRAIN_TIMEOUT_S)
        finally:
            stop_workers(workers)
        rows = Submission.objects.filter(pk__in=expected)
        verdicts = {row.pk: row.verdict for row in rows}
        last = max(seen.values()) if seen else time.time()
        elapsed = last - started
        graded = len(seen)
        result = {
            "workers": worker_count,
            "submissions": count,
            "graded": graded,
            "lost": count - graded,
            "right_verdicts": sum(verdicts.get(pk) == verdict for pk, verdict in expected.items()),
            "claimed_more_than_once": rows.filter(attempts__gt=1).count(),
            "queueing_s": rounded(queued_s),
            "drain_s": rounded(elapsed, 2),
            "per_minute": rounded(graded / elapsed * 60, 1) if elapsed > 0 else None,
        }
        by_verdict = {}
        for verdict in verdicts.values():
            by_verdict[verdict] = by_verdict.get(verdict, 0) + 1
        result["verdicts"] = by_verdict
        print(
            f"  throughput with {worker_count} worker(s): {graded}/{count} graded in {elapsed:.1f} s "
            f"= {result['per_minute']}/min; verdicts {by_verdict}",
            flush=True,
        )
        rounds.append(result)
    one, two = rounds
    return {
        "exercise": THROUGHPUT_EXERCISE,
        "mode": "check",
        "mix": [filename for filename, _ in THROUGHPUT_MIX],
        "rounds": rounds,
        "scaling_2_vs_1": rounded(two["per_minute"] / one["per_minute"], 2)
        if one["per_minute"] and two["per_minute"]
        else None,
        "passes": all(r["lost"] == 0 and r["right_verdicts"] == r["submissions"] for r in rounds),
    }
