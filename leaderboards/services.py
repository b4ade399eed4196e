"""Leaderboard rules, in one place: what counts, what "best" means, how points add up,
and the queries every page runs.

Only accepted PRACTICE submissions with a measured speedup are read. Assessments, quick
checks and author validation runs never reach a leaderboard. A program graded several
times counts by its middle grading (counted_grading), so grading the same code again
steadies a figure and cannot lift it by luck; and that middle grading ranks only when it
counts as faster than the reference (submissions.speed: its interval wholly above 1, and not
the unchanged starter). An answer that is correct but not faster has no entry, no points
and no "faster than N%". Entries whose intervals overlap share a rank (board_ranks).
"""

import math
from dataclasses import dataclass
from datetime import datetime
from itertools import groupby
from operator import itemgetter

from django.core.cache import cache
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.db.models import Count, F, Prefetch, Q, Value
from django.db.models.functions import Floor, Ln
from django.utils.text import slugify

from questions.bank_version import bank_version
from questions.models import DIFFICULTY_POINTS, Kind, Question
from submissions import speed
from submissions.models import Purpose, Submission
from submissions.same_code import middle_grading
from submissions.states import Speed, Status, Verdict

from .models import CPU_HARDWARE, LeaderboardEntry, TopicScore, UserScore

TOPICS_CACHE_S = 24 * 3600  # keyed by the bank's version, so never stale

PAGE_SIZE = 50
# Each exercise solved earns BASE_POINTS x its difficulty weight, plus one weight per
# doubling of speedup over the reference, for at most MAX_DOUBLINGS doublings.
BASE_POINTS = 10
MAX_DOUBLINGS = 10
# The standing chart groups speedups in bins of half a doubling (a factor of sqrt 2):
# bin = floor(ln(speedup) * BIN_SCALE), computed the same way in SQL and in Python.
BINS_PER_DOUBLING = 2
BIN_SCALE = BINS_PER_DOUBLING / math.log(2)
REBUILD_BATCH = 5000


def is_board_grading(submission):
    """Whether the boards read this grading: an accepted practice answer with a measured
    speedup on known hardware. Whether it ranks is counted_grading's question."""
    return (
        submission.purpose == Purpose.PRACTICE
        and submission.status == Status.DONE
        and submission.verdict == Verdict.ACCEPTED
        and submission.speedup is not None
        and submission.speedup > 0
        and bool(submission.hardware)
    )


def board_gradings():
    """The Submission rows is_board_grading accepts, as a query."""
    return Submission.objects.filter(
        purpose=Purpose.PRACTICE, status=Status.DONE, verdict=Verdict.ACCEPTED, speedup__gt=0
    ).exclude(hardware="")


def is_rankable(submission):
    """Whether this grading's own figure could stand on a board: a board grading that
    counts as faster than the reference (submissions.speed)."""
    return is_board_grading(submission) and speed.submission_speed(submission) == Speed.FASTER


#: What counted_grading reads of each grading (plus the board's keys, for the rebuild).
GRADING_FIELDS = ("id", "program", "speedup", "speedup_ci_low", "speedup_ci_high", "peak_memory_bytes", "created_at")
BOARD_KEYS = ("user_id", "exercise__question_id", "hardware")


def ranking_key(speedup, peak_memory_bytes, when):
    """Smaller is better: faster, then leaner (unknown memory counts as worst), then earlier."""
    return (-speedup, math.inf if peak_memory_bytes is None else peak_memory_bytes, when)


def _speed_then_id(grading):
    return (grading["speedup"], grading["id"])


def counted_grading(gradings, starters):
    """The grading that stands for one person on one board, and how many gradings its
    program has; None when no program ranks. Each program's middle grading by speedup
    (submissions.same_code's lower median, an actual grading, chosen among all its gradings so
    that only gradings that read faster cannot be picked out), kept when it counts as
    faster (submissions.speed; `starters` are the exercise's starter fingerprints, which never
    count), then the best of those by ranking_key. `gradings` are dicts with GRADING_FIELDS."""
    programs = {}
    for grading in gradings:
        programs.setdefault(grading["program"], []).append(grading)
    middles = [(middle_grading(group, _speed_then_id), len(group)) for group in programs.values()]
    ranked = [middle for middle in middles if _counts_as_faster(middle[0], starters)]
    return min(ranked, key=lambda middle: _ranked(middle[0]), default=None)


def _counts_as_faster(grading, starters):
    return speed.counts_as_faster(grading["speedup"], grading["speedup_ci_low"], grading["program"] in starters)


def _ranked(grading):
    return (*ranking_key(grading["speedup"], grading["peak_memory_bytes"], grading["created_at"]), grading["id"])


def speed_doublings(speedup):
    if not speedup or speedup <= 1:
        return 0
    return min(MAX_DOUBLINGS, int(math.floor(math.log2(speedup))))


def points_for(difficulty, speedup):
    """Points depend only on the person's own result, so a total never drops because someone
    else improved: it rewards solving harder exercises first and being faster second."""
    return DIFFICULTY_POINTS[difficulty] * (BASE_POINTS + speed_doublings(speedup))


# ---- Keeping the tables current -------------------------------------------------------


def _entry_fields(grading, gradings):
    return {
        "submission_id": grading["id"],
        "speedup": grading["speedup"],
        "speedup_ci_low": grading["speedup_ci_low"],
        "speedup_ci_high": grading["speedup_ci_high"],
        "peak_memory_bytes": grading["peak_memory_bytes"],
        "achieved_at": grading["created_at"],
        "gradings": gradings,
    }


def record_submission(submission):
    """Fold one graded submission into the tables; returns the person's entry or None.

    The person's entry is worked out again from all their gradings on the board, since a
    new grading of the counted program can move its middle grading either way, and out
    of the faster ones: then the entry and its points go.
    Safe under concurrent workers: the person's UserScore row is locked first, so two
    results for the same person are applied one after the other, and the unique
    constraint on (user, question, hardware) turns a racing insert into an update."""
    if not is_board_grading(submission):
        return None
    question = Question.objects.only("id", "topic", "difficulty").get(pk=submission.exercise.question_id)
    starters = speed.starter_programs([question.pk]).get(question.pk, frozenset())
    with transaction.atomic():
        UserScore.objects.select_for_update().get_or_create(
            user_id=submission.user_id, defaults={"reached_at": submission.created_at}
        )
        gradings = board_gradings().filter(
            user_id=submission.user_id, exercise__question=question, hardware=submission.hardware
        )
        counted = counted_grading(gradings.values(*GRADING_FIELDS), starters)
        if counted is None:
            LeaderboardEntry.objects.filter(
                user_id=submission.user_id, question=question, hardware=submission.hardware
            ).delete()
            refresh_scores(submission.user_id, topics=[question.topic])
            return None
        fields = _entry_fields(*counted)
        entry, created = LeaderboardEntry.objects.select_for_update().get_or_create(
            user_id=submission.user_id, question=question, hardware=submission.hardware, defaults=fields
        )
        if not created:
            if all(getattr(entry, name) == value for name, value in fields.items()):
                return entry
            for name, value in fields.items():
                setattr(entry, name, value)
            entry.save()
        refresh_scores(submission.user_id, topics=[question.topic])
    return entry


@dataclass
class Totals:
    points: int = 0
    solved: int = 0
    reached_at: datetime | None = None

    def add(self, points, when):
        self.points += points
        self.solved += 1
        self.reached_at = when if self.reached_at is None else max(self.reached_at, when)

    def as_defaults(self):
        return {"points": self.points, "solved": self.solved, "reached_at": self.reached_at}


def summarise(entries):
    """Totals from one person's entries (dicts with question_id, difficulty, topic, speedup,
    peak_memory_bytes, achieved_at). Each exercise counts once, with its best hardware."""
    best_per_question = {}
    for entry in entries:
        key = ranking_key(entry["speedup"], entry["peak_memory_bytes"], entry["achieved_at"])
        held = best_per_question.get(entry["question_id"])
        if held is None or key < held[0]:
            best_per_question[entry["question_id"]] = (key, entry)
    overall, by_topic = Totals(), {}
    for _, entry in best_per_question.values():
        points = points_for(entry["difficulty"], entry["speedup"])
        overall.add(points, entry["achieved_at"])
        by_topic.setdefault(entry["topic"], Totals()).add(points, entry["achieved_at"])
    return overall, by_topic


def _entry_summaries(entries):
    """The fields summarise() reads, as dicts."""
    return entries.values(
        "user_id",
        "question_id",
        "speedup",
        "peak_memory_bytes",
        "achieved_at",
        difficulty=F("question__difficulty"),
        topic=F("question__topic"),
    )


def refresh_scores(user_id, topics):
    entries = _entry_summaries(LeaderboardEntry.objects.filter(user_id=user_id))
    overall, by_topic = summarise(entries)
    if overall.solved:
        UserScore.objects.update_or_create(user_id=user_id, defaults=overall.as_defaults())
    else:  # nothing of theirs ranks (any more): off the points boards
        UserScore.objects.filter(user_id=user_id).delete()
    for topic in topics:
        totals = by_topic.get(topic)
        if totals is None:
            TopicScore.objects.filter(user_id=user_id, topic=topic).delete()
        else:
            TopicScore.objects.update_or_create(user_id=user_id, topic=topic, defaults=totals.as_defaults())


def counted_gradings():
    """Every board's entries from the Submission rows: (user_id, question_id, hardware,
    counted grading, gradings of its program), one board's rows at a time, in one pass
    over the board gradings in board order; a person with nothing that ranks on a board
    (counted_grading is None) has no entry there."""
    starters = speed.all_starter_programs()
    rows = board_gradings().order_by(*BOARD_KEYS).values(*BOARD_KEYS, *GRADING_FIELDS)
    for board, gradings in groupby(rows.iterator(chunk_size=REBUILD_BATCH), key=itemgetter(*BOARD_KEYS)):
        counted = counted_grading(gradings, starters.get(board[1], frozenset()))
        if counted is not None:
            yield (*board, *counted)


def _in_batches(rows, size=REBUILD_BATCH):
    batch = []
    for row in rows:
        batch.append(row)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


@transaction.atomic
def rebuild():
    """Recompute every table from the Submission rows; returns (entries, people)."""
    TopicScore.objects.all().delete()
    UserScore.objects.all().delete()
    LeaderboardEntry.objects.all().delete()
    entries = (
        LeaderboardEntry(
            user_id=user_id, question_id=question_id, hardware=hardware, **_entry_fields(grading, gradings)
        )
        for user_id, question_id, hardware, grading, gradings in counted_gradings()
    )
    entry_count = 0
    for batch in _in_batches(entries):
        LeaderboardEntry.objects.bulk_create(batch)
        entry_count += len(batch)

    people = 0
    by_user = _entry_summaries(LeaderboardEntry.objects.order_by("user_id")).iterator(chunk_size=REBUILD_BATCH)
    user_scores, topic_scores = [], []
    for user_id, entries_of_user in groupby(by_user, key=itemgetter("user_id")):
        overall, by_topic = summarise(list(entries_of_user))
        user_scores.append(UserScore(user_id=user_id, **overall.as_defaults()))
        topic_scores.extend(
            TopicScore(user_id=user_id, topic=topic, **totals.as_defaults()) for topic, totals in by_topic.items()
        )
        people += 1
        if len(user_scores) >= REBUILD_BATCH:
            _flush_scores(user_scores, topic_scores)
    _flush_scores(user_scores, topic_scores)
    return entry_count, people


def _flush_scores(user_scores, topic_scores):
    UserScore.objects.bulk_create(user_scores, batch_size=REBUILD_BATCH)
    TopicScore.objects.bulk_create(topic_scores, batch_size=REBUILD_BATCH)
    user_scores.clear()
    topic_scores.clear()


# ---- Reading the boards --------------------------------------------------------------


def public_name(user):
    """The opted-in display name, else 'Anonymous' (accounts.Profile owns the rule)."""
    try:
        return user.profile.public_name
    except ObjectDoesNotExist:
        return "Anonymous"


# Boards prefetch names instead of joining them: the page query then walks the board's
# index to its OFFSET alone, and the 50 people on the page are fetched by primary key.
# (A join makes PostgreSQL sort the whole board for deep pages.)


def global_board():
    return UserScore.objects.prefetch_related("user__profile").order_by("-points", "reached_at", "user_id")


def topic_board(topic):
    return (
        TopicScore.objects.filter(topic=topic)
        .prefetch_related("user__profile")
        .order_by("-points", "reached_at", "user_id")
    )


#: An exercise board's order (ranking_key, then id), as SQL; the board index follows it.
EXERCISE_BOARD_ORDER = ("-speedup", F("peak_memory_bytes").asc(nulls_last=True), "achieved_at", "id")


def exercise_board(question, hardware):
    with_version_number = Submission.objects.only("id", "exercise__number").select_related("exercise")
    return (
        LeaderboardEntry.objects.filter(question=question, hardware=hardware)
        .prefetch_related("user__profile", Prefetch("submission", queryset=with_version_number))
        .order_by(*EXERCISE_BOARD_ORDER)
    )


def board_ranks(question_id, hardware, count):
    """The submissions.speed.Rank of the first `count` entries of an exercise board, in board
    order: entries whose 95% intervals overlap share a rank (submissions.speed.shared_ranks).
    Walks the board from its top (one entry past `count`, to know whether the last one
    shares its rank): as deep as the page shown, as an OFFSET would."""
    rows = (
        LeaderboardEntry.objects.filter(question_id=question_id, hardware=hardware)
        .order_by(*EXERCISE_BOARD_ORDER)
        .values_list("speedup", "speedup_ci_low", "speedup_ci_high")[: count + 1]
    )
    return speed.shared_ranks([speed.interval(*row) for row in rows])[:count]


def ranked_page(page):
    """(entry, Rank) for each entry of a Paginator page of exercise_board."""
    entries = list(page.object_list)
    if not entries:
        return []
    first = entries[0]
    ranks = board_ranks(first.question_id, first.hardware, page.start_index() + len(entries) - 1)
    return list(zip(entries, ranks[page.start_index() - 1 :]))


def rank_of_entry(entry):
    """The entry's submissions.speed.Rank on its board (position_of_entry, shared when tied)."""
    position = position_of_entry(entry)
    return board_ranks(entry.question_id, entry.hardware, position)[position - 1]


def position_of_score(score):
    """1-based place of a UserScore or TopicScore row on its board (same order as the board)."""
    if isinstance(score, TopicScore):
        board = TopicScore.objects.filter(topic=score.topic)
    else:
        board = UserScore.objects.all()
    ahead = board.filter(
        Q(points__gt=score.points)
        | Q(points=score.points, reached_at__lt=score.reached_at)
        | Q(points=score.points, reached_at=score.reached_at, user_id__lt=score.user_id)
    )
    return ahead.count() + 1


def position_of_entry(entry):
    board = LeaderboardEntry.objects.filter(question_id=entry.question_id, hardware=entry.hardware)
    same_speed = Q(speedup=entry.speedup)
    if entry.peak_memory_bytes is None:
        leaner = Q(peak_memory_bytes__isnull=False)
        same_memory = Q(peak_memory_bytes__isnull=True)
    else:
        leaner = Q(peak_memory_bytes__lt=entry.peak_memory_bytes)
        same_memory = Q(peak_memory_bytes=entry.peak_memory_bytes)
    ahead = board.filter(
        Q(speedup__gt=entry.speedup)
        | (same_speed & leaner)
        | (same_speed & same_memory & Q(achieved_at__lt=entry.achieved_at))
        | (same_speed & same_memory & Q(achieved_at=entry.achieved_at, id__lt=entry.id))
    )
    return ahead.count() + 1


def exercises():
    """Coding questions, for the board index (retired ones keep their board)."""
    return (
        Question.objects.public()
        .filter(kind=Kind.CODING)
        .only("slug", "title", "topic", "difficulty")
        .order_by("topic", "title")
    )


def topics():
    """(slug, topic) for every topic that has coding exercises, by name; cached under the bank's version."""
    key = f"leaderboards:topics:{bank_version()}"
    found = cache.get(key)
    if found is None:
        names = (
            Question.objects.public()
            .filter(kind=Kind.CODING)
            .values_list("topic", flat=True)
            .distinct()
            .order_by("topic")
        )
        found = [(slugify(name), name) for name in names]
        cache.set(key, found, TOPICS_CACHE_S)
    return found


def topic_for_slug(slug):
    return dict(topics()).get(slug)


def hardware_for(question):
    """The hardware that has results for this exercise: the CPU sandbox first, then GPU models by name."""
    found = set(LeaderboardEntry.objects.filter(question=question).values_list("hardware", flat=True).distinct())
    return sorted(found, key=lambda hardware: (hardware != CPU_HARDWARE, hardware))


# ---- "Faster than N%" ----------------------------------------------------------------


def speedup_bin(speedup):
    return math.floor(math.log(speedup) * BIN_SCALE)


def _bin_edge(index):
    return 2 ** (index / BINS_PER_DOUBLING)


def _format_speedup(value):
    return f"{value:.3g}×"


def distribution(question_id, hardware, highlight=None):
    """Histogram of each person's best speedup on this board, in bins of half a doubling."""
    counts = dict(
        LeaderboardEntry.objects.filter(question_id=question_id, hardware=hardware)
        .annotate(bin=Floor(Ln(F("speedup")) * Value(BIN_SCALE)))
        .values_list("bin")
        .annotate(n=Count("id"))
        .values_list("bin", "n")
    )
    counts = {int(index): n for index, n in counts.items()}
    highlighted = None if highlight is None else speedup_bin(highlight)
    indexes = set(counts) | ({highlighted} if highlighted is not None else set())
    if not indexes:
        return []
    bins = []
    for index in range(min(indexes), max(indexes) + 1):
        low, high = _bin_edge(index), _bin_edge(index + 1)
        bins.append(
            {
                "low": low,
                "high": high,
                "label": f"{_format_speedup(low)}–{_format_speedup(high)}",
                "count": counts.get(index, 0),
                "highlight": index == highlighted,
            }
        )
    return bins


def counted_submission_ids(user, question):
    """The ids of the submissions a signed-in person's entries for one exercise hold, one per hardware."""
    return set(LeaderboardEntry.objects.filter(user=user, question=question).values_list("submission_id", flat=True))


def counted_for(submission):
    """What the board counts for the submission's author, said from the submission's side:
    {"speedup", "gradings", "is_this", "same_code"}; None before their entry exists."""
    entry = (
        LeaderboardEntry.objects.filter(
            user_id=submission.user_id, question_id=submission.exercise.question_id, hardware=submission.hardware
        )
        .select_related("submission")
        .only("speedup", "gradings", "submission__program")
        .first()
    )
    if entry is None:
        return None
    return {
        "speedup": entry.speedup,
        "gradings": entry.gradings,
        "is_this": entry.submission_id == submission.pk,
        "same_code": entry.submission.program == submission.program,
    }


def _distinguishably_below(low):
    """Entries whose interval (else figure) lies wholly below `low` (submissions.speed.indistinguishable)."""
    return Q(speedup_ci_high__lt=low) | Q(speedup_ci_high__isnull=True, speedup__lt=low)


def standing(submission):
    """How a graded practice submission compares with everyone else's best on the same
    exercise and hardware: {"faster_than_pct", "compared_with", "hardware", "distribution",
    "counted"} (counted_for). "Faster than" counts only entries whose interval lies wholly
    below this submission's: an overlapping one is not beaten. None when the submission's
    figure would not rank (not accepted, not practice, not faster than the reference...)."""
    if not is_rankable(submission):
        return None
    question_id = submission.exercise.question_id
    others = LeaderboardEntry.objects.filter(question_id=question_id, hardware=submission.hardware).exclude(
        user_id=submission.user_id
    )
    low, _ = speed.interval(submission.speedup, submission.speedup_ci_low, submission.speedup_ci_high)
    tally = others.aggregate(total=Count("id"), slower=Count("id", filter=_distinguishably_below(low)))
    pct = None
    if tally["total"]:
        # Rounded down: never claim more than was beaten.
        pct = math.floor(100 * tally["slower"] / tally["total"])
    return {
        "faster_than_pct": pct,
        "compared_with": tally["total"],
        "hardware": submission.hardware,
        "distribution": distribution(question_id, submission.hardware, highlight=submission.speedup),
        "counted": counted_for(submission),
    }
