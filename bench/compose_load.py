"""The load-and-fault run on the compose stack (docs/benchmarks.md, "The compose stack under load and faults").

Runs against a docker-compose project that is up (scripts/compose_check.sh starts one and calls
this; LOAD_MINUTES sets the run's length there), with the environment docker-compose.yml asks for:

    .venv/bin/python bench/compose_load.py --project NAME --web http://127.0.0.1:PORT \
        --learners 12 --minutes 6 --out bench/results/compose_load

1. Makes --learners verified accounts (in the web container, `manage.py shell`).
2. Runs Locust (bench/compose_locustfile.py) headless for --minutes: every learner browses,
   runs quick checks and submits full gradings. Meanwhile, at fixed fractions of the run, the
   faults: one CPU worker killed (SIGKILL to its container, started again --worker-down-s
   later, as a supervisor would), Redis restarted, PostgreSQL restarted. /metrics is scraped
   every few seconds throughout (with METRICS_TOKEN from the environment).
3. Waits (at most --settle-s) for every submission a learner was given to be final, reads each
   row and the workers' logs, and checks: none lost (every id is a row), none stuck (all done),
   each graded once (one result written per row: the lifecycle's conditional write, read back as
   the rows' attempts and the workers' "dropping this result" warnings), every learner's work
   graded (no learner starved), and that the scraped metrics show each fault.

Writes results.json and Locust's CSV files to --out, prints a Markdown summary, and exits 1
when a check fails (the summary says which).
"""

import argparse
import ast
import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

from bench_stats import percentile

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
#: When each fault happens, as a fraction of the run.
FAULTS = (("kill a CPU worker", 0.2), ("restart Redis", 0.45), ("restart PostgreSQL", 0.7))
SCRAPE_EVERY_S = 3
GRADING_TASK = "grader.grade_submission"
#: The metric lines the timeline keeps (prefixes of the exposition's sample names).
WATCHED = (
    "hotpath_queue_depth",
    "hotpath_queue_running",
    "hotpath_workers_up",
    "hotpath_gradings_total",
    "hotpath_metrics_section_up",
    "hotpath_platform_errors_total",
    "hotpath_worker_heartbeat_timestamp_seconds",
    "django_http_responses_total_by_status_total",
    "django_http_exceptions_total_by_type_total",
)
SAMPLE = re.compile(r"^([a-zA-Z_:][\w:]*)(\{[^}]*\})?\s+(\S+)$")

MAKE_LEARNERS = """
import json, sys
from django.contrib.auth import get_user_model
from accounts.models import Profile
made = []
for username, password in json.loads(sys.stdin.readline()):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", password)
    Profile.objects.update_or_create(user=user, defaults={"verified_email": user.email})
    made.append(username)
print(json.dumps(made))
"""

READ_ROWS = """
import json, sys
from submissions.models import Submission
ids = json.loads(sys.stdin.readline())
rows = []
for s in Submission.objects.filter(pk__in=ids).select_related("user"):
    at = lambda value: value.timestamp() if value else None
    rows.append({"id": s.pk, "learner": s.user.username, "purpose": s.purpose, "status": s.status,
                 "verdict": s.verdict, "attempts": s.attempts, "platform_error": s.platform_error,
                 "created_at": at(s.created_at), "started_at": at(s.started_at), "finished_at": at(s.finished_at)})
print(json.dumps(rows))
"""


class Compose:
    def __init__(self, project):
        self.base = ["docker-compose", "--project-name", project, "--profile", "mailcatcher"]

    def run(self, *args, stdin=None, check=True):
        result = subprocess.run(
            [*self.base, *args], input=stdin, capture_output=True, text=True, check=False, timeout=300
        )
        if check and result.returncode:
            raise SystemExit(f"docker-compose {' '.join(args)} failed:\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
        return result.stdout

    def shell(self, script, stdin_line):
        """Runs `script` in the web container's Django shell; its last line of output, parsed as JSON."""
        output = self.run("exec", "-T", "web", "python", "manage.py", "shell", "-c", script, stdin=stdin_line + "\n")
        return json.loads(output.strip().splitlines()[-1])

    def containers(self, service):
        return self.run("ps", "-q", service).split()


def scrape(web, token):
    request = urllib.request.Request(f"{web}/metrics", headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    samples = {}
    for line in text.splitlines():
        match = SAMPLE.match(line)
        if match and match.group(1).startswith(WATCHED):
            samples[match.group(1) + (match.group(2) or "")] = float(match.group(3))
    return samples


class Sampler(threading.Thread):
    """Scrapes /metrics every SCRAPE_EVERY_S seconds; a failed scrape is kept as its error."""

    def __init__(self, web, token):
        super().__init__(daemon=True)
        self.web, self.token = web, token
        self.timeline = []
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            at = time.time()
            try:
                self.timeline.append({"at": at, "samples": scrape(self.web, self.token)})
            except Exception as error:  # noqa: BLE001 - an unanswered scrape is itself a data point
                self.timeline.append({"at": at, "error": f"{type(error).__name__}: {error}"[:200]})
            self.stopping.wait(SCRAPE_EVERY_S)


def busy_worker(compose, wait_s):
    """A CPU worker in the middle of a grading (its last grading task received, not yet finished),
    waited for up to `wait_s`; the first CPU worker when none is busy by then."""
    deadline = time.time() + wait_s
    containers = compose.containers("worker-cpu")
    while time.time() < deadline:
        for container in containers:
            lines = subprocess.run(
                ["docker", "logs", "--tail", "200", container], capture_output=True, text=True, check=False
            )
            tasks = [line for line in (lines.stdout + lines.stderr).splitlines() if GRADING_TASK in line]
            if tasks and "] received" in tasks[-1]:
                return container, True
        time.sleep(1)
    return containers[0], False


def inject_faults(compose, started, seconds, worker_down_s, outage_s, log):
    """The faults at their moments in the run; each entry of `log` says what was done and when."""
    for name, fraction in FAULTS:
        time.sleep(max(0.0, started + fraction * seconds - time.time()))
        if name == "kill a CPU worker":
            victim, busy = busy_worker(compose, 60)
            at = time.time()
            subprocess.run(["docker", "kill", "--signal", "KILL", victim], check=True, capture_output=True)
            time.sleep(worker_down_s)
            subprocess.run(["docker", "start", victim], check=True, capture_output=True)
            log.append({"fault": name, "at": at, "container": victim[:12], "was_grading": busy, "back_at": time.time()})
        else:
            # A restart with an outage of `outage_s`, as a failover or an upgrade of the service makes.
            service = "redis" if "Redis" in name else "postgres"
            at = time.time()
            compose.run("stop", "--timeout", "10", service)
            time.sleep(outage_s)
            compose.run("start", service)
            log.append({"fault": name, "at": at, "back_at": time.time()})


def wait_final(compose, ids, settle_s):
    deadline = time.time() + settle_s
    while True:
        rows = compose.shell(READ_ROWS, json.dumps(ids)) if ids else []
        if all(row["status"] == "done" for row in rows) and len(rows) == len(ids) or time.time() > deadline:
            return rows
        time.sleep(10)


def worker_log_events(compose):
    """Per submission id, from every worker's JSON log lines: deliveries of its grading task
    (received), runs that ended (succeeded), and runs that found it claimed or graded already or
    dropped their result because another run had closed it."""
    events = {}
    for service in ("worker-cpu", "worker-check"):
        for container in compose.containers(service):
            output = subprocess.run(["docker", "logs", container], capture_output=True, text=True, check=False)
            for line in (output.stdout + output.stderr).splitlines():
                if not line.startswith("{"):
                    continue
                record = json.loads(line)
                message = record.get("message", "")
                submission = record.get("submission_id")
                if GRADING_TASK in message and "] received" in message:
                    # Celery writes the arguments as Python's repr: [5] first, (5,) on a retry.
                    submission = int(ast.literal_eval(record["data"]["args"])[0])
                    kind = "received"
                elif GRADING_TASK in message and "] succeeded" in message:
                    kind = "succeeded"
                elif "is already claimed or graded; nothing to do" in message:
                    kind, submission = "nothing_to_do", int(message.split()[1])
                elif "dropping this result" in message:
                    kind, submission = "result_dropped", int(message.split()[1])
                else:
                    continue
                counts = events.setdefault(
                    submission, {"received": 0, "succeeded": 0, "nothing_to_do": 0, "result_dropped": 0}
                )
                counts[kind] += 1
    return events


def locust_stats(csv_prefix):
    """{name: {count, failures, p50, p95, p99 (ms)}} from Locust's _stats.csv, the aggregate left out."""
    import csv

    found = {}
    with open(f"{csv_prefix}_stats.csv", newline="") as handle:
        for row in csv.DictReader(handle):
            if row["Name"] == "Aggregated":
                continue
            found[row["Name"]] = {
                "count": int(row["Request Count"]),
                "failures": int(row["Failure Count"]),
                "p50_ms": float(row["50%"]),
                "p95_ms": float(row["95%"]),
                "p99_ms": float(row["99%"]),
            }
    return found


def metric_events(timeline, faults):
    """What the scrapes show around each fault: the gauges an operator would look at."""
    shown = {}
    for index, fault in enumerate(faults):
        # From the fault to a minute after it ended, or to the next fault, whichever comes first.
        end = min([fault["back_at"] + 60, *(later["at"] for later in faults[index + 1 :])])
        window = [point for point in timeline if fault["at"] - 1 <= point["at"] <= end]
        answered = [point["samples"] for point in window if "samples" in point]
        if fault["fault"] == "kill a CPU worker":
            # The killed worker's heartbeat stops while it is down: its age in the scrapes grows.
            ages = [
                point["at"] - value
                for point in window
                if "samples" in point
                for key, value in point["samples"].items()
                if key.startswith("hotpath_worker_heartbeat_timestamp_seconds") and fault["container"] in key
            ]
            shown[fault["fault"]] = {
                "oldest_heartbeat_age_s": round(max(ages), 1) if ages else None,
                "min_cpu_workers_up": min(
                    (s.get('hotpath_workers_up{queue="cpu"}', 0) for s in answered), default=None
                ),
            }
        else:
            section = "workers" if "Redis" in fault["fault"] else "queues"
            before = next((p["samples"] for p in reversed(timeline) if p["at"] < fault["at"] and "samples" in p), {})
            after = answered[-1] if answered else {}
            shown[fault["fault"]] = {
                "scrapes": len(window),
                "scrapes_unanswered": len(window) - len(answered),
                f"scrapes_with_{section}_section_down": sum(
                    1 for s in answered if s.get(f'hotpath_metrics_section_up{{section="{section}"}}') == 0
                ),
                "server_errors": _increase(before, after, 'django_http_responses_total_by_status_total{status="5'),
                "exceptions": {
                    key.split('"')[1]: value
                    for key, value in _increases(before, after, "django_http_exceptions_total_by_type_total").items()
                },
            }
    return shown


def _increases(before, after, prefix):
    return {
        key: after[key] - before.get(key, 0)
        for key in after
        if key.startswith(prefix) and after[key] - before.get(key, 0) > 0
    }


def _increase(before, after, prefix):
    return sum(_increases(before, after, prefix).values())


def summarise(rows, records, stats, faults, timeline, log_events, seconds, learners):
    by_id = {row["id"]: row for row in rows}
    lost = [record["id"] for record in records if record["id"] not in by_id]
    # What each stuck row was left as, so that a failed run says where to look.
    stuck = {
        row["id"]: {key: row[key] for key in ("status", "attempts", "platform_error", "started_at")}
        for row in rows
        if row["status"] != "done"
    }
    results = {
        row["id"]: (lambda e: e["succeeded"] - e["nothing_to_do"] - e["result_dropped"])(
            log_events.get(row["id"], {"succeeded": 0, "nothing_to_do": 0, "result_dropped": 0})
        )
        for row in rows
    }
    not_once = {pk: n for pk, n in results.items() if n != 1}
    internal = [row["id"] for row in rows if row["verdict"] == "internal_error"]
    gradings = [row for row in rows if row["purpose"] == "practice" and row["status"] == "done"]
    checks = [row for row in rows if row["purpose"] == "check" and row["status"] == "done"]
    waits = {}
    for row in rows:
        if row["purpose"] == "practice" and row["started_at"]:
            waits.setdefault(row["learner"], []).append(row["started_at"] - row["created_at"])
    per_learner = {
        name: {
            "submitted": sum(1 for r in records if r["learner"] == name),
            "graded": sum(1 for r in rows if r["learner"] == name and r["status"] == "done"),
            "median_queue_wait_s": round(statistics.median(waits[name]), 1) if name in waits else None,
        }
        for name in learners
    }
    starved = [name for name, data in per_learner.items() if data["submitted"] and not data["graded"]]
    first = timeline[0]["samples"] if timeline and "samples" in timeline[0] else {}
    last = next((point["samples"] for point in reversed(timeline) if "samples" in point), {})
    gradings_total = sum(v for k, v in last.items() if k.startswith("hotpath_gradings_total")) - sum(
        v for k, v in first.items() if k.startswith("hotpath_gradings_total")
    )
    full_wall = [row["finished_at"] - row["started_at"] for row in gradings if row["started_at"]]
    check_latency = [row["finished_at"] - row["created_at"] for row in checks if row["finished_at"]]
    medians = [data["median_queue_wait_s"] for data in per_learner.values() if data["median_queue_wait_s"] is not None]
    return {
        "learners": len(learners),
        "run_s": seconds,
        "submissions": len(records),
        "lost": lost,
        "stuck": stuck,
        "internal_error": internal,
        "attempts": {
            str(n): sum(1 for row in rows if row["attempts"] == n) for n in sorted({r["attempts"] for r in rows})
        },
        "not_graded_once": not_once,
        "deliveries": {
            kind: sum(log_events.get(row["id"], {}).get(kind, 0) for row in rows)
            for kind in ("received", "succeeded", "nothing_to_do", "result_dropped")
        },
        "full_gradings_done": len(gradings),
        "full_gradings_per_minute": round(len(gradings) / (seconds / 60), 2),
        "full_grading_wall_s": {
            "p50": round(percentile(full_wall, 0.50), 1) if full_wall else None,
            "p95": round(percentile(full_wall, 0.95), 1) if full_wall else None,
        },
        "quick_checks_done": len(checks),
        "quick_check_latency_s": {
            "p50": round(percentile(check_latency, 0.50), 2) if check_latency else None,
            "p95": round(percentile(check_latency, 0.95), 2) if check_latency else None,
            "p99": round(percentile(check_latency, 0.99), 2) if check_latency else None,
        },
        "metrics_gradings_total_increase": gradings_total,
        "per_learner": per_learner,
        "starved": starved,
        "queue_wait_median_spread_s": [min(medians), max(medians)] if medians else None,
        "pages": stats,
        "faults": faults,
        "metrics_at_faults": metric_events(timeline, faults),
    }


def failures(summary):
    found = []
    for key in ("lost", "stuck", "internal_error", "starved", "not_graded_once"):
        if summary[key]:
            found.append(f"{key}: {summary[key]}")
    shown = summary["metrics_at_faults"]
    kill = shown.get("kill a CPU worker", {})
    if not (kill.get("oldest_heartbeat_age_s") or 0) > 30:
        found.append(f"the metrics did not show the killed worker's missing heartbeat: {kill}")
    for name, section in (("restart Redis", "workers"), ("restart PostgreSQL", "queues")):
        data = shown.get(name, {})
        if not (
            data.get("scrapes_unanswered") or data.get(f"scrapes_with_{section}_section_down") or data.get("exceptions")
        ):
            found.append(f"no scrape showed '{name}': {data}")
    if not summary["submissions"]:
        found.append("no submission was made")
    return found


def markdown(summary):
    lines = [
        f"{summary['learners']} learners for {summary['run_s'] / 60:.1f} min; {summary['submissions']} submissions",
        "",
        "| page or action | requests | failed | p50 ms | p95 ms | p99 ms |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, data in sorted(summary["pages"].items()):
        lines.append(
            f"| {name} | {data['count']} | {data['failures']} | {data['p50_ms']:.0f} | {data['p95_ms']:.0f} |"
            f" {data['p99_ms']:.0f} |"
        )
    lines += ["", "```", json.dumps({k: v for k, v in summary.items() if k != "pages"}, indent=1), "```"]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--project", required=True, help="the docker-compose project name")
    parser.add_argument("--web", required=True, help="the web service's address on loopback")
    parser.add_argument("--learners", type=int, default=12)
    parser.add_argument("--minutes", type=float, default=6.0)
    parser.add_argument("--worker-down-s", type=float, default=75.0, help="how long the killed worker stays down")
    parser.add_argument("--outage-s", type=float, default=15.0, help="how long Redis and PostgreSQL stay down")
    parser.add_argument("--settle-s", type=float, default=600.0, help="how long to wait for the last gradings")
    parser.add_argument("--out", type=Path, default=HERE / "results" / "compose_load")
    args = parser.parse_args()
    token = os.environ.get("METRICS_TOKEN")
    if not token:
        parser.error("set METRICS_TOKEN to the stack's (the run reads /metrics with it)")
    if args.learners < 1 or args.minutes <= 0:
        parser.error("--learners must be at least 1 and --minutes above 0")
    args.out.mkdir(parents=True, exist_ok=True)
    compose = Compose(args.project)

    suffix = secrets.token_hex(3)
    accounts = [
        {"username": f"load{suffix}-{n:02d}", "password": secrets.token_urlsafe(16)} for n in range(args.learners)
    ]
    compose.shell(MAKE_LEARNERS, json.dumps([[a["username"], a["password"]] for a in accounts]))
    learners_file = args.out / "learners.json"
    learners_file.write_text(json.dumps(accounts))
    record_file = args.out / "submissions.json"
    seconds = int(args.minutes * 60)

    sampler = Sampler(args.web, token)
    sampler.start()
    started = time.time()
    locust = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "locust"),
            "-f",
            str(HERE / "compose_locustfile.py"),
            "--headless",
            "--users",
            str(args.learners),
            "--spawn-rate",
            str(args.learners),
            "--run-time",
            f"{seconds}s",
            "--stop-timeout",
            "5",
            "--host",
            args.web,
            "--csv",
            str(args.out / "locust"),
            "--only-summary",
            "--loglevel",
            "WARNING",
        ],
        env={**os.environ, "HOTPATH_LOAD_LEARNERS": str(learners_file), "HOTPATH_LOAD_RECORD": str(record_file)},
    )
    faults = []
    injector = threading.Thread(
        target=inject_faults,
        args=(compose, started, seconds, args.worker_down_s, args.outage_s, faults),
    )
    injector.start()
    locust.wait()
    injector.join()
    records = json.loads(record_file.read_text())
    rows = wait_final(compose, [record["id"] for record in records], args.settle_s)
    sampler.stopping.set()
    sampler.join()

    summary = summarise(
        rows,
        records,
        locust_stats(args.out / "locust"),
        faults,
        sampler.timeline,
        worker_log_events(compose),
        seconds,
        [a["username"] for a in accounts],
    )
    (args.out / "results.json").write_text(json.dumps({**summary, "timeline": sampler.timeline}, indent=1))
    print(markdown(summary))
    problems = failures(summary)
    for problem in problems:
        print(f"FAILED: {problem}", file=sys.stderr)
    return 1 if problems or locust.returncode not in (0, 1) else 0


if __name__ == "__main__":
    sys.exit(main())
