"""Where the spread between gradings of the same answer comes from (issue 30).

Given the headline `calls` of several gradings (the report's own: every timed
pair's raw seconds, its echo and the run that timed it), each pair's times are
made net of its grading's echo level exactly as the harness does
(grader.harness.stats.net_pairs), then logged, and the variance of the log is
split three ways, for the speedup and for each side alone:

  within a run      pair to pair, in one pair of runner processes;
  between runs      process to process, inside one grading, beyond what the
                    pairs' own scatter explains;
  between gradings  what moves from one grading to the next beyond its runs
                    (the moment, the host).

From the three, the spread of a grading's figure is predicted for other
allocations of the same number of timed pairs (more runs of fewer pairs), which
is the choice HEADLINE_RUNS makes. Variances are of natural logs: sqrt(v) is
about the relative standard deviation.
"""

import math

import numpy as np

#: A median's variance over n normal samples is about this times the mean's.
MEDIAN_EFFICIENCY = math.pi / 2


def decompose(calls_per_grading):
    """The variance components (natural-log units) of the log speedup and of each
    side's log net time, from the gradings' headline `calls` that were timed in
    two or more runs; None when fewer than two such gradings."""
    from grader.harness import stats

    gradings = []
    for calls in calls_per_grading:
        if not calls or not calls.get("runs") or len(set(calls["runs"])) < 2:
            continue
        reference, submission = stats.net_pairs(
            np.asarray(calls["reference_s"], dtype=float),
            np.asarray(calls["submission_s"], dtype=float),
            None if calls["echo_s"] is None else np.asarray(calls["echo_s"], dtype=float),
        )
        runs = np.asarray(calls["runs"])
        gradings.append(
            {
                "runs": runs,
                "reference": np.log(reference),
                "submission": np.log(submission),
                "speedup": np.log(reference) - np.log(submission),
            }
        )
    if len(gradings) < 2:
        return None
    components = {name: _components(gradings, name) for name in ("speedup", "reference", "submission")}
    per_grading = [{"runs": len(set(g["runs"].tolist())), "run_speedups": _run_speedups(g)} for g in gradings]
    pairs = int(np.median([g["runs"].size for g in gradings]))
    runs = int(np.median([len(set(g["runs"].tolist())) for g in gradings]))
    return {
        "gradings": len(gradings),
        "pairs_per_grading": pairs,
        "runs_per_grading": runs,
        "components": components,
        "per_grading": per_grading,
        "predicted_sd": {
            f"{count} runs of {pairs // count}": round(predicted_sd(components["speedup"], count, pairs), 4)
            for count in range(1, pairs + 1)
            if pairs % count == 0
        },
    }


def _run_speedups(grading):
    """Each run's median pair speedup, in run order."""
    labels = dict.fromkeys(grading["runs"].tolist())
    return [round(float(np.exp(np.median(grading["speedup"][grading["runs"] == run]))), 2) for run in labels]


def _components(gradings, name):
    """Within-run, between-run and between-grading variances of one logged series."""
    within, between_runs, run_counts, pair_counts, grading_means = [], [], [], [], []
    for grading in gradings:
        values, runs = grading[name], grading["runs"]
        members = [values[runs == run] for run in dict.fromkeys(runs.tolist())]
        run_means = np.array([member.mean() for member in members])
        within.extend(float(np.var(member, ddof=1)) for member in members if member.size > 1)
        between_runs.append(float(np.var(run_means, ddof=1)))
        run_counts.append(len(members))
        pair_counts.append(np.mean([member.size for member in members]))
        grading_means.append(float(run_means.mean()))
    within_var = float(np.mean(within))
    pairs_per_run = float(np.mean(pair_counts))
    # A run's mean carries within/pairs of pair noise; the rest is the process's own.
    run_var = max(0.0, float(np.mean(between_runs)) - within_var / pairs_per_run)
    runs = float(np.mean(run_counts))
    grading_var = max(0.0, float(np.var(grading_means, ddof=1)) - (run_var + within_var / pairs_per_run) / runs)
    return {
        "within_run": round(within_var, 6),
        "between_runs": round(run_var, 6),
        "between_gradings": round(grading_var, 6),
    }


def predicted_sd(components, runs, pairs):
    """The standard deviation (log units) of a grading's median-based figure with
    `pairs` timed pairs shared among `runs` runs."""
    variance = (
        components["between_gradings"]
        + MEDIAN_EFFICIENCY * components["between_runs"] / runs
        + MEDIAN_EFFICIENCY * components["within_run"] / pairs
    )
    return math.sqrt(variance)
