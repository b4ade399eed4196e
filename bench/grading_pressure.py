"""Grading part "pressure" (issue 30, item 3): can what a submission does to
memory move the figure?

The hostile suite's tiny exercise (tests/hostile/exercise: an unfused NumPy chain)
is graded in rounds, each grading three answers that compute the reference's own
chain: the chain as it is (the honest figure), `exhaust_disk_fill` (fills its
tmpfs first and keeps it full) and `exhaust_memory_nearly_full` (keeps 95% of its
memory limit resident between calls), in an order that rotates from round to
round. An attack's figure "holds" when it lies inside the interval of the honest
grading of its own round: memory pressure from the submission's side then did not
move the reference's calls beyond what the honest figure itself allows. Run it with
other work beside it (`--beside 2`): pressure matters most on a busy host.
"""

import frontmatter
from bench_stats import median, rounded
from common import ROOT
from grading_setup import host_state, load_average, timed_backend

HOSTILE = ROOT / "tests" / "hostile"
ATTACKS = ("exhaust_disk_fill", "exhaust_memory_nearly_full")
ROUNDS = 20
#: Share of attack gradings whose figure must lie inside their round's honest interval.
HOLD_TARGET = 0.8


def tiny_exercise():
    from grader.grading import Exercise

    directory = HOSTILE / "exercise"
    spec = dict(frontmatter.load(directory / "question.md").metadata)
    files = {name: (directory / name).read_text() for name in ("reference.py", "inputs.py", "solution.py")}
    return Exercise(slug=spec["slug"], spec=spec, files=files)


def answers(exercise):
    """name -> code: the honest chain first, then each attack."""
    chosen = {"honest chain": exercise.files["reference.py"]}
    for name in ATTACKS:
        chosen[name] = (HOSTILE / "attacks" / f"{name}.py").read_text()
    return chosen


def part_pressure(args):
    from grader.grading import grade

    exercise = tiny_exercise()
    codes = answers(exercise)
    names = list(codes)
    backend = timed_backend()
    load_before = load_average()
    rounds = []
    for number in range(ROUNDS if not args.quick else 2):
        shift = number % len(names)
        figures = {}
        for name in names[shift:] + names[:shift]:
            report = grade(exercise, codes[name], mode="full", backend=backend)
            figures[name] = {"verdict": report["verdict"], "speedup": report["speedup"], "ci": report["speedup_ci"]}
            shown = "-" if report["speedup"] is None else f"{report['speedup']:.3f}x {report['speedup_ci']}"
            print(f"  pressure #{number + 1} {name}: {report['verdict']} {shown}", flush=True)
        rounds.append(figures)
    summary = {name: summarise(name, rounds) for name in names}
    attack_gradings = [summary[name]["gradings"] for name in ATTACKS]
    held = sum(summary[name]["held"] for name in ATTACKS)
    return {
        "exercise": exercise.slug,
        "rounds": rounds,
        "answers": summary,
        "held": held,
        "attack_gradings": sum(attack_gradings),
        "host": {"state": host_state(), "load_before": load_before, "load_after": load_average()},
        "passes": all(summary[name]["all_accepted"] for name in names) and held >= HOLD_TARGET * sum(attack_gradings),
    }


def summarise(name, rounds):
    """An answer's figures over the rounds, and how many lay inside the honest interval of their round."""
    speedups = [r[name]["speedup"] for r in rounds if r[name]["speedup"] is not None]
    inside = [
        r["honest chain"]["ci"] is not None
        and r[name]["speedup"] is not None
        and r["honest chain"]["ci"][0] <= r[name]["speedup"] <= r["honest chain"]["ci"][1]
        for r in rounds
    ]
    return {
        "gradings": len(rounds),
        "all_accepted": all(r[name]["verdict"] == "accepted" for r in rounds),
        "median": rounded(median(speedups)),
        "min": rounded(min(speedups)) if speedups else None,
        "max": rounded(max(speedups)) if speedups else None,
        "held": sum(inside),
    }
