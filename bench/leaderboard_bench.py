"""Leaderboard pages with a million submissions in PostgreSQL: are they under 50 ms?

Creates (drops and re-creates) a dedicated database, migrates it, seeds ~20,000 users,
a dozen coding exercises and ~1,000,000 graded Submission rows with COPY, builds the
leaderboard tables with `rebuild_leaderboards`' service, then renders each leaderboard
view with Django's test Client and reports the median of N renders (server-side: the
whole request through middleware, queries and templates).

    .venv/bin/python bench/leaderboard_bench.py                 # full run (seeding takes a few minutes)
    .venv/bin/python bench/leaderboard_bench.py --reuse         # time again on the already seeded database

Writes bench/results/leaderboard.json.
"""

import argparse
import json
import os
import statistics
import time
from datetime import timedelta
from urllib.parse import urlsplit

from common import ROOT, create_database, setup_django

RESULTS = ROOT / "bench" / "results" / "leaderboard.json"
DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/helper_lb_bench"
TARGET_MS = 50.0

TOPICS = {
    "Algorithmic Complexity & Code-Level Optimization": "cpu",
    "Technical Foundation and Self Assessment": "cpu",
    "Performance Cost Optimization & Resource Efficiency": "cpu",
    "GPU Programming": "gpu",
}
GPU_MODELS = ["NVIDIA H100 80GB HBM3", "NVIDIA A100-SXM4-80GB", "NVIDIA L4"]
DIFFICULTIES = ["easy", "medium", "hard"]
PURPOSES = {"practice": 0.80, "check": 0.12, "assessment": 0.06, "validation": 0.02}
VERDICTS = {
    "accepted": 0.55,
    "wrong_answer": 0.20,
    "runtime_error": 0.10,
    "time_limit": 0.08,
    "memory_limit": 0.04,
    "rejected": 0.03,
}
SAMPLE_CODE = (
    "import numpy as np\n\n\ndef transform(values):\n"
    "    # vectorised: one pass, no Python loop\n"
    "    out = np.empty_like(values)\n    np.cumsum(values, out=out)\n    return out\n"
)


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--database-url",
        default=DEFAULT_DATABASE_URL,
        help="PostgreSQL database to (re)create; its name must contain 'bench' (default: %(default)s)",
    )
    parser.add_argument("--users", type=int, default=20_000)
    parser.add_argument("--submissions", type=int, default=1_000_000)
    parser.add_argument("--renders", type=int, default=20, help="timed renders per page (the median is reported)")
    parser.add_argument("--reuse", action="store_true", help="skip seeding: time the database a previous run seeded")
    parser.add_argument("--seed", type=int, default=20240601, help="random seed for the generated data")
    args = parser.parse_args()
    url = urlsplit(args.database_url)
    if url.scheme not in {"postgres", "postgresql"}:
        parser.error("--database-url must be a PostgreSQL URL")
    if "bench" not in url.path:
        parser.error("refusing to drop a database whose name does not contain 'bench'")
    return args


def bench_environment(database_url):
    # The bench measures what production runs: DEBUG off (no query log), its own database.
    return {
        "DATABASE_URL": database_url,
        "DEBUG": os.environ.get("DEBUG", "0"),
        "SECRET_KEY": os.environ.get("SECRET_KEY", "leaderboard-bench-only"),
    }


def copy_rows(model, generated_columns, rows):
    """COPY rows into model's table. Columns the generator does not supply get the field's
    default, so the bench keeps working when other apps add fields with defaults."""
    from django.db import connection

    fields = [
        field for field in model._meta.concrete_fields if not field.primary_key or field.column in generated_columns
    ]
    supplied = set(generated_columns)
    constants = {
        field.column: field.get_db_prep_save(field.get_default(), connection)
        for field in fields
        if field.column not in supplied
    }
    columns = list(generated_columns) + list(constants)
    tail = tuple(constants.values())
    table = connection.ops.quote_name(model._meta.db_table)
    column_sql = ", ".join(connection.ops.quote_name(column) for column in columns)
    count = 0
    with connection.cursor() as cursor:
        with cursor.cursor.copy(f"COPY {table} ({column_sql}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row + tail)
                count += 1
    return count


def seed(args):
    import numpy as np
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import connection, transaction
    from django.utils import timezone

    from accounts.models import Profile
    from questions.models import ExerciseVersion, Kind, Question
    from submissions.models import Submission

    rng = np.random.default_rng(args.seed)
    now = timezone.now()
    timings = {}

    started = time.perf_counter()
    with transaction.atomic():
        versions = []
        for topic, target in TOPICS.items():
            for difficulty in DIFFICULTIES:
                slug = f"bench-{target}-{len(versions) // 2 + 1:02d}-{difficulty}"
                question = Question.objects.create(
                    slug=slug,
                    title=f"Bench exercise {slug}",
                    topic=topic,
                    difficulty=difficulty,
                    kind=Kind.CODING,
                    prompt="Make it fast.",
                )
                for number in (1, 2):  # two versions: boards span versions
                    versions.append(
                        ExerciseVersion.objects.create(
                            question=question,
                            number=number,
                            spec={"target": target, "entry_point": "transform"},
                            reference_code=SAMPLE_CODE,
                            starter_code=SAMPLE_CODE,
                            inputs_code="",
                            solution_code=SAMPLE_CODE,
                            content_hash=f"{slug}-v{number}",
                        )
                    )
        version_ids = np.array([version.pk for version in versions])
        version_is_gpu = np.array([version.spec["target"] == "gpu" for version in versions])

        unusable = make_password(None)
        user_columns = [
            "username",
            "email",
            "password",
            "is_superuser",
            "is_staff",
            "is_active",
            "first_name",
            "last_name",
            "date_joined",
        ]
        copy_rows(
            get_user_model(),
            user_columns,
            (
                (f"bench{index:06d}", f"bench{index:06d}@example.com", unusable, False, False, True, "", "", now)
                for index in range(args.users)
            ),
        )
        user_ids = np.array(
            get_user_model().objects.filter(username__startswith="bench").order_by("pk").values_list("pk", flat=True)
        )
        opted_in = rng.random(len(user_ids)) < 0.3
        copy_rows(
            Profile,
            ["user_id", "display_name", "show_on_leaderboards"],
            (
                (int(user_id), f"Bench Person {index}", bool(show))
                for index, (user_id, show) in enumerate(zip(user_ids, opted_in))
            ),
        )
    timings["seed_users_s"] = time.perf_counter() - started

    started = time.perf_counter()
    n = args.submissions
    # Activity is skewed, as on real sites: a few people submit a lot.
    users = user_ids[np.minimum((rng.random(n) ** 2.5 * len(user_ids)).astype(int), len(user_ids) - 1)]
    version_index = rng.integers(0, len(version_ids), n)
    purposes = rng.choice(list(PURPOSES), n, p=list(PURPOSES.values()))
    verdicts = rng.choice(list(VERDICTS), n, p=list(VERDICTS.values()))
    timed = (verdicts == "accepted") & (purposes != "check")
    speedups = np.where(timed, rng.lognormal(np.log(3.0), 1.0, n), np.nan)
    memory = np.where(timed, rng.lognormal(np.log(64e6), 0.6, n), np.nan)
    gpu_choice = rng.choice(GPU_MODELS, n, p=[0.5, 0.3, 0.2])
    hardware = np.where(version_is_gpu[version_index], gpu_choice, "cpu")
    ages = rng.integers(0, 365 * 24 * 3600, n)
    # Most people submit a few different programs to an exercise and some grade one again:
    # each submission is one of four programs of its author's (the board counts each program's middle grading).
    programs = rng.integers(0, 4, n)
    submission_columns = [
        "user_id",
        "exercise_id",
        "code",
        "program",
        "purpose",
        "status",
        "verdict",
        "message",
        "speedup",
        "peak_memory_bytes",
        "hardware",
        "attempts",
        "platform_error",
        "created_at",
        "started_at",
        "finished_at",
    ]

    def submission_rows():
        for i in range(n):
            created = now - timedelta(seconds=int(ages[i]))
            speedup = None if np.isnan(speedups[i]) else float(speedups[i])
            peak = None if np.isnan(memory[i]) else int(memory[i])
            yield (
                int(users[i]),
                int(version_ids[version_index[i]]),
                SAMPLE_CODE,
                f"{programs[i]:032x}",
                str(purposes[i]),
                "done",
                str(verdicts[i]),
                "",
                speedup,
                peak,
                str(hardware[i]),
                1,
                "",
                created,
                created,
                created + timedelta(seconds=20),
            )

    with transaction.atomic():
        copy_rows(Submission, submission_columns, submission_rows())
    timings["seed_submissions_s"] = time.perf_counter() - started

    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    from leaderboards import services

    entries, people = services.rebuild()
    timings["rebuild_leaderboards_s"] = time.perf_counter() - started
    vacuum_analyze()
    print(f"seeded {args.users} users, {n} submissions; rebuilt {entries} entries for {people} people")
    return timings


def vacuum_analyze():
    # Fresh tables need their visibility map for index-only scans, and statistics for the planner.
    from django.db import connection

    connection.ensure_connection()
    previous = connection.connection.autocommit
    connection.connection.autocommit = True
    try:
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
    finally:
        connection.connection.autocommit = previous


def pages_to_time():
    from django.db.models import Count
    from django.urls import reverse

    from leaderboards import services
    from leaderboards.models import LeaderboardEntry
    from submissions.models import Submission

    busiest = (
        LeaderboardEntry.objects.filter(hardware="cpu")
        .values("question_id")
        .annotate(n=Count("id"))
        .order_by("-n")
        .first()
    )
    if busiest is None:
        raise SystemExit("No leaderboard entries: seed first (run without --reuse).")
    question_id = busiest["question_id"]
    middle = services.exercise_board(question_id, "cpu")[busiest["n"] // 2]
    submission = Submission.objects.select_related("exercise__question").get(pk=middle.submission_id)
    slug = submission.exercise.question.slug
    topic_slug = next(s for s, name in services.topics() if name == submission.exercise.question.topic)
    deep_page = max(1, busiest["n"] // services.PAGE_SIZE // 2)
    return submission.user, [
        ("global", reverse("leaderboards:index")),
        (f"global, page {deep_page}", f"{reverse('leaderboards:index')}?page={deep_page}"),
        ("exercise (cpu)", reverse("leaderboards:exercise", args=[slug])),
        ("topic", reverse("leaderboards:topic", args=[topic_slug])),
        ("standing", reverse("leaderboards:standing", args=[submission.pk])),
    ]


def time_pages(renders):
    from django.db import connection
    from django.test import Client

    user, pages = pages_to_time()
    client = Client()
    client.force_login(user)  # signed in: the pages also work out "your place"
    results = []
    for name, url in pages:
        for _ in range(2):  # warm caches (templates, connection) before timing
            assert client.get(url).status_code == 200, url
        queries = []
        # Counted with a wrapper: the query log is reset at each request start.
        with connection.execute_wrapper(lambda execute, sql, *rest: queries.append(sql) or execute(sql, *rest)):
            client.get(url)
        samples = []
        for _ in range(renders):
            started = time.perf_counter()
            response = client.get(url)
            samples.append((time.perf_counter() - started) * 1000)
            assert response.status_code == 200, url
        results.append(
            {
                "page": name,
                "url": url,
                "queries": len(queries),
                "median_ms": round(statistics.median(samples), 2),
                "min_ms": round(min(samples), 2),
                "max_ms": round(max(samples), 2),
            }
        )
    return results


def counts():
    from leaderboards.models import LeaderboardEntry, TopicScore, UserScore
    from submissions.models import Submission

    return {
        "submissions": Submission.objects.count(),
        "leaderboard_entries": LeaderboardEntry.objects.count(),
        "user_scores": UserScore.objects.count(),
        "topic_scores": TopicScore.objects.count(),
    }


def main():
    args = parse_args()
    if not args.reuse:
        create_database(args.database_url, fresh=True)
    setup_django(bench_environment(args.database_url))
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    timings = {}
    if not args.reuse:
        timings = seed(args)
    load_before = os.getloadavg()[0]
    pages = time_pages(args.renders)
    load_after = os.getloadavg()[0]
    table_counts = counts()

    print(f"\n{'page':<22} {'median ms':>10} {'min ms':>8} {'max ms':>8} {'queries':>8}")
    for row in pages:
        flag = "" if row["median_ms"] <= TARGET_MS else "  over target"
        print(
            f"{row['page']:<22} {row['median_ms']:>10.2f} {row['min_ms']:>8.2f} {row['max_ms']:>8.2f} {row['queries']:>8}{flag}"
        )
    print(", ".join(f"{name}: {value:,}" for name, value in table_counts.items()))
    for name, value in timings.items():
        print(f"{name}: {value:.1f}")
    print(f"load average (1 min) before/after timing: {load_before:.1f}/{load_after:.1f} on {os.cpu_count()} CPUs")
    if max(load_before, load_after) > os.cpu_count():
        print("warning: the machine was busy with other work; these medians are inflated, run again when idle")

    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(
        json.dumps(
            {
                "database": urlsplit(args.database_url).path.lstrip("/"),
                "renders_per_page": args.renders,
                "cpus": os.cpu_count(),
                "load_average_1m": [round(load_before, 2), round(load_after, 2)],
                "target_ms": TARGET_MS,
                "counts": table_counts,
                "seed_timings_s": {name: round(value, 1) for name, value in timings.items()},
                "pages": pages,
                "all_under_target": all(row["median_ms"] <= TARGET_MS for row in pages),
            },
            indent=2,
        )
        + "\n"
    )
    print(f"wrote {RESULTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
