"""Public pages against a bare Django "hello" view, side by side: gunicorn (2 sync
workers) serves the project with DEBUG off, wrk (8 connections) loads one page at a
time for --duration seconds, every page once per round, each right after the hello view
(--hello-duration seconds). A page's figure is its requests/s and its ratio to the hello
view's rate measured just before it; the report gives the median of the rounds. The goal (issue 14): every public
page at least 10% of the bare view's rate.

    .venv/bin/python bench/page_speed.py                       # 3 rounds of 10 s a page
    .venv/bin/python bench/page_speed.py --rounds 1 --duration 2 --json /tmp/x.json

The bank is loaded from questions/bank/ into a database of the bench's own (PostgreSQL
by default, dropped and re-created), the cache is a private redis-server on a free
loopback port (as in production; the settings' file cache when redis-server is
missing). The hello view is in bench/page_speed_site.py, a settings module and
URLconf only this script loads. wrk is installed with apt-get when missing and the
script runs as root. Writes bench/results/page_speed.json and prints the Markdown
table that docs/benchmarks.md quotes.
"""

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import quote, urlsplit

from common import ROOT, create_database, setup_django
from load_bench import free_port, start_private_redis

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/helper_page_speed_bench"
RESULTS = ROOT / "bench" / "results" / "page_speed.json"
SETTINGS_MODULE = "page_speed_site"
HELLO = "hello"
TARGET_RATIO = 0.10
WORKERS = 2
CONNECTIONS = 8
WRK_THREADS = 2
SERVER_READY_TIMEOUT_S = 60


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--database-url",
        default=os.environ.get("PAGE_SPEED_DATABASE_URL", DEFAULT_DATABASE_URL),
        help="database to (re)create and load the bank into; its name must contain 'bench' (default: %(default)s)",
    )
    parser.add_argument("--rounds", type=int, default=3, help="every page once per round; the median is reported")
    parser.add_argument("--duration", type=int, default=10, help="seconds of wrk per page and round")
    parser.add_argument(
        "--hello-duration", type=int, default=5, help="seconds of wrk on the hello view before each page"
    )
    parser.add_argument(
        "--only",
        action="append",
        default=[],
        metavar="PAGE",
        help="measure this page (and hello) only; may be repeated",
    )
    parser.add_argument("--json", default=str(RESULTS))
    args = parser.parse_args(argv)
    url = urlsplit(args.database_url)
    if url.scheme in {"postgres", "postgresql"} and "bench" not in url.path:
        parser.error("refusing to drop a database whose name does not contain 'bench'")
    if url.scheme not in {"postgres", "postgresql", "sqlite"}:
        parser.error("--database-url must be a PostgreSQL or SQLite URL")
    return args


def ensure_wrk():
    """The path of wrk, installed with apt-get when missing and we may."""
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("Installing wrk with apt-get...", flush=True)
        environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=environment)
        subprocess.run(
            ["apt-get", "install", "-y", "-qq", "wrk"], check=True, env=environment, stdout=subprocess.DEVNULL
        )
        found = shutil.which("wrk")
    if not found:
        raise SystemExit("wrk is missing: install it (e.g. sudo apt-get install wrk)")
    return found


def prepare_database(database_url):
    """A fresh database with the migrations and the bank (exercises not run through the sandbox)."""
    from django.core.management import call_command

    url = urlsplit(database_url)
    if url.scheme == "sqlite":
        Path(url.path).unlink(missing_ok=True)
    else:
        create_database(database_url, fresh=True)
    call_command("migrate", verbosity=0)
    call_command("load_bank", skip_validation=True, verbosity=0)


def public_pages():
    """{name: path} for every public page, the examples picked from the loaded bank."""
    from django.urls import reverse

    from leaderboards import services as boards
    from questions.models import Kind, Question

    live = Question.objects.public().live()

    def first(**filters):
        question = live.filter(**filters).order_by("slug").first()
        if question is None:
            raise SystemExit(f"the bank has no question with {filters}")
        return question.slug

    browse = reverse("questions:browse")
    topic = live.order_by("topic").values_list("topic", flat=True).first()
    board_topic, _ = boards.topics()[0]
    cpu_exercise = first(kind=Kind.CODING, exercise_versions__spec__target="cpu")
    gpu_exercise = first(kind=Kind.CODING, exercise_versions__spec__target="gpu")
    return {
        HELLO: "/bench-hello/",
        "home": reverse("home"),
        "questions": browse,
        "questions page 2": f"{browse}?page=2",
        "questions, beginner's order": f"{browse}?order=start",
        "questions, topic filter": f"{browse}?topic={quote(topic)}",
        "questions, easy numeric": f"{browse}?difficulty=easy&kind=numeric",
        "questions, search": f"{browse}?q=cache",
        "questions, tag search": f"{browse}?q={quote('#numpy')}",
        "concept question": reverse("questions:detail", args=[first(kind=Kind.CONCEPT)]),
        "numeric question": reverse("questions:detail", args=[first(kind=Kind.NUMERIC)]),
        "CPU exercise": reverse("questions:detail", args=[cpu_exercise]),
        "GPU exercise": reverse("questions:detail", args=[gpu_exercise]),
        "leaderboards": reverse("leaderboards:index"),
        "exercise leaderboard": reverse("leaderboards:exercise", args=[cpu_exercise]),
        "topic leaderboard": reverse("leaderboards:topic", args=[board_topic]),
        "sign in": reverse("login"),
        "sign up": reverse("accounts:signup"),
    }


def start_server(environment, port, log_path):
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    command = [
        gunicorn,
        "--workers",
        str(WORKERS),
        "--bind",
        f"127.0.0.1:{port}",
        "--pythonpath",
        str(ROOT / "bench"),
        "--log-level",
        "warning",
        "interview_platform.wsgi:application",
    ]
    log = open(log_path, "ab")
    process = subprocess.Popen(
        command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )
    log.close()
    deadline = time.monotonic() + SERVER_READY_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(
                f"gunicorn exited with {process.returncode}:\n{Path(log_path).read_text(errors='replace')[-3000:]}"
            )
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench-hello/", timeout=2) as response:
                if response.status == 200:
                    return process
        except (urllib.error.URLError, OSError):
            time.sleep(0.2)
    stop_server(process)
    raise SystemExit("gunicorn did not answer within %ss" % SERVER_READY_TIMEOUT_S)


def stop_server(process):
    if process.poll() is None:
        os.killpg(process.pid, 15)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()


def check_pages(base, pages):
    """Every page answers 200 before it is timed (a redirect or an error page would be fast and wrong)."""
    for name, path in pages.items():
        try:
            with urllib.request.urlopen(base + path, timeout=30) as response:
                status = response.status
                final = response.geturl()
        except urllib.error.HTTPError as exc:
            status, final = exc.code, base + path
        if status != 200 or final != base + path:
            raise SystemExit(f"{name} ({path}) answered {status} at {final}: not a public page as the bench expects")


def run_wrk(wrk, url, duration):
    """(requests/s, non-2xx responses, socket errors) from one wrk run."""
    output = subprocess.run(
        [wrk, "-t", str(WRK_THREADS), "-c", str(CONNECTIONS), "-d", f"{duration}s", url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if rate is None:
        raise SystemExit(f"cannot read wrk's output:\n{output}")
    bad = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    return float(rate.group(1)), int(bad.group(1)) if bad else 0, sum(map(int, errors.groups())) if errors else 0


def measure(wrk, base, pages, rounds, duration, hello_duration):
    """{name: [{"rps", "ratio", "hello_rps", "non_2xx", "socket_errors"} per round]}. The hello view runs
    just before every page, so each ratio compares two runs seconds apart (the load on a shared host
    drifts over a round's minutes)."""
    samples = {name: [] for name in pages}
    for number in range(1, rounds + 1):
        for name, path in pages.items():
            if name == HELLO:
                continue
            hello_rps, _, _ = run_wrk(wrk, base + pages[HELLO], hello_duration)
            samples[HELLO].append(
                {"rps": hello_rps, "ratio": 1.0, "hello_rps": hello_rps, "non_2xx": 0, "socket_errors": 0}
            )
            rps, non_2xx, errors = run_wrk(wrk, base + path, duration)
            samples[name].append(
                {
                    "rps": rps,
                    "ratio": rps / hello_rps,
                    "hello_rps": hello_rps,
                    "non_2xx": non_2xx,
                    "socket_errors": errors,
                }
            )
            print(
                f"round {number}  {name:30s} {rps:9.1f} req/s  {rps / hello_rps:6.1%} of hello ({hello_rps:.0f} req/s just before)"
                + (f"  ({non_2xx} non-2xx)" if non_2xx else ""),
                flush=True,
            )
    return samples


def summarise(pages, samples):
    rows = []
    for name, path in pages.items():
        runs = samples[name]
        rows.append(
            {
                "page": name,
                "path": path,
                "rps_median": statistics.median(run["rps"] for run in runs),
                "ratio_median": statistics.median(run["ratio"] for run in runs),
                "ratio_min": min(run["ratio"] for run in runs),
                "non_2xx": sum(run["non_2xx"] for run in runs),
                "rounds": runs,
            }
        )
    return rows


def markdown(rows):
    lines = [
        "| page | path | requests/s (median) | of the bare view (median) | lowest round |",
        "| --- | --- | ---: | ---: | ---: |",
    ]
    for row in rows:
        lines.append(
            f"| {row['page']} | `{row['path']}` | {row['rps_median']:,.0f} | {row['ratio_median']:.1%} | {row['ratio_min']:.1%} |"
        )
    return "\n".join(lines)


def main(argv=None):
    args = parse_args(argv)
    wrk = ensure_wrk()
    run_dir = tempfile.mkdtemp(prefix="hotpath-page-speed-")
    redis = None
    server = None
    try:
        environment = {
            "DATABASE_URL": args.database_url,
            "DJANGO_SETTINGS_MODULE": SETTINGS_MODULE,
            "DEBUG": "0",
            "SECRET_KEY": "page-speed-bench-only",
            "HOTPATH_RUN_DIR": run_dir,
            "LOG_LEVEL": "WARNING",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT / "bench"), str(ROOT), os.environ.get("PYTHONPATH")])),
        }
        if shutil.which("redis-server"):
            redis, environment["REDIS_URL"] = start_private_redis(run_dir)
        setup_django(environment)
        print("Loading the bank into", args.database_url, flush=True)
        prepare_database(args.database_url)
        from questions.models import Kind, Question

        live = Question.objects.public().live()
        bank = {"questions": live.exclude(kind=Kind.CODING).count(), "exercises": live.filter(kind=Kind.CODING).count()}
        pages = public_pages()
        if args.only:
            unknown = set(args.only) - set(pages)
            if unknown:
                raise SystemExit(f"unknown page(s) {sorted(unknown)}; choose from {sorted(pages)}")
            pages = {name: path for name, path in pages.items() if name == HELLO or name in args.only}

        port = free_port()
        base = f"http://127.0.0.1:{port}"
        server = start_server(dict(os.environ), port, Path(run_dir) / "gunicorn.log")
        check_pages(base, pages)
        load_before = os.getloadavg()[0]
        print(
            f"load average {load_before:.2f} (on {os.cpu_count()} CPUs); {bank['questions']} questions, {bank['exercises']} exercises; gunicorn {WORKERS} workers, "
            f"wrk {CONNECTIONS} connections, {args.rounds} rounds of {args.duration} s a page, "
            f"each after {args.hello_duration} s of the hello view",
            flush=True,
        )
        rows = summarise(pages, measure(wrk, base, pages, args.rounds, args.duration, args.hello_duration))
    finally:
        if server is not None:
            stop_server(server)
        if redis is not None:
            redis.terminate()
            redis.wait()
        shutil.rmtree(run_dir, ignore_errors=True)

    slow = [row["page"] for row in rows if row["ratio_median"] < TARGET_RATIO]
    result = {
        "load_average_before": load_before,
        "load_average_after": os.getloadavg()[0],
        "cpus": os.cpu_count(),
        "bank": bank,
        "workers": WORKERS,
        "connections": CONNECTIONS,
        "rounds": args.rounds,
        "duration_s": args.duration,
        "hello_duration_s": args.hello_duration,
        "cache": "redis" if redis is not None else "file",
        "database": urlsplit(args.database_url).scheme,
        "target_ratio": TARGET_RATIO,
        "pages": rows,
        "below_target": slow,
        "command": "python bench/page_speed.py " + " ".join(argv if argv is not None else sys.argv[1:]),
    }
    Path(args.json).parent.mkdir(parents=True, exist_ok=True)
    Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    print()
    print(markdown(rows))
    print(f"\nBelow {TARGET_RATIO:.0%} of the bare view: {', '.join(slow) if slow else 'none'}")
    print(f"Wrote {args.json}")
    return 1 if slow else 0


if __name__ == "__main__":
    sys.exit(main())
