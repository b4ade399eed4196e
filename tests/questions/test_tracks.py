"""Tracks: read from tracks.yaml by load_bank (unknown slugs are errors), and each
person's progress on the track page and the home page."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from questions.loader import BankLoadError, load_bank
from questions.loader.tracks import read_tracks
from questions.models import Attempt, Track
from submissions.models import Purpose, Submission
from submissions.states import Status, Verdict

TRACKS = """\
- slug: basics
  name: Basics
  description: Start here.
  questions: [amortised-doubling, gib-in-bytes]
- slug: code
  name: Code
  prerequisites: [basics]
  questions: [square-values]
"""


@pytest.fixture
def tracked_bank(small_bank, load, db):
    small_bank.write("tracks.yaml", TRACKS)
    load(small_bank.root)
    return small_bank


def test_load_bank_writes_tracks_in_order(tracked_bank):
    tracks = list(Track.objects.all())
    assert [track.slug for track in tracks] == ["basics", "code"]
    assert tracks[0].question_slugs == ["amortised-doubling", "gib-in-bytes"]
    assert tracks[1].prerequisites == ["basics"]


def test_a_track_removed_from_the_file_goes(tracked_bank, load):
    tracked_bank.write("tracks.yaml", TRACKS.split("- slug: code")[0])
    load(tracked_bank.root)
    assert list(Track.objects.values_list("slug", flat=True)) == ["basics"]


def test_unknown_question_slug_is_a_clear_error(small_bank, db):
    small_bank.write("tracks.yaml", TRACKS.replace("gib-in-bytes]", "no-such-question]"))
    with pytest.raises(BankLoadError) as raised:
        load_bank(small_bank.root, validate=False, strict=True)
    expected = ["tracks.yaml: track basics: unknown question slug 'no-such-question'"]
    assert [str(error) for error in raised.value.errors] == expected
    assert not Track.objects.exists()


def test_a_bad_tracks_file_keeps_the_tracks_last_loaded(tracked_bank):
    tracked_bank.write("tracks.yaml", TRACKS.replace("[basics]", "[later]"))
    report = load_bank(tracked_bank.root, validate=False)
    expected = ["tracks.yaml: track code: prerequisite 'later' is not a track listed above this one"]
    assert [str(problem) for problem in report.problems] == expected
    assert Track.objects.get(slug="code").prerequisites == ["basics"]


@pytest.mark.parametrize(
    "text, reason",
    [
        ("- slug: a\n  name: A\n  questions: []\n", "questions must be a non-empty list"),
        ("- slug: a\n  name: A\n  questions: [x, x]\n", "'x' is listed twice"),
        ("- slug: Bad Slug\n  name: A\n  questions: [x]\n", "slug must be lowercase"),
        ("- slug: a\n  name: A\n  colour: red\n  questions: [x]\n", "unknown key 'colour'"),
        ("slug: a\n", "must be a list of tracks"),
    ],
)
def test_malformed_tracks_are_named(tmp_path, text, reason):
    (tmp_path / "tracks.yaml").write_text(text)
    tracks, errors = read_tracks(tmp_path, {"x"})
    assert tracks == [] and any(reason in str(error) for error in errors), errors


def test_no_file_no_tracks(tmp_path):
    assert read_tracks(tmp_path, {"x"}) == ([], [])


def test_track_page_shows_progress_and_next_item(tracked_bank, candidate_client, candidate):
    from questions.models import Question

    numeric = Question.objects.get(slug="gib-in-bytes")
    concept = Question.objects.get(slug="amortised-doubling")
    Attempt.objects.create(user=candidate, question=concept, answer_text="x", score=0.75)
    Attempt.objects.create(user=candidate, question=numeric, numeric_input="1", numeric_correct=False, score=0.0)
    html = candidate_client.get(reverse("questions:track", args=["basics"])).content.decode()
    assert "You solved 1 of 2 and practised 2." in html
    assert f'Next: <a href="{numeric.get_absolute_url()}">' in html


def test_an_accepted_submission_solves_a_coding_item(tracked_bank, candidate_client, candidate):
    from questions.models import Question

    coding = Question.objects.get(slug="square-values")
    Submission.objects.create(
        user=candidate,
        exercise=coding.current_exercise(),
        code="x",
        purpose=Purpose.PRACTICE,
        status=Status.DONE,
        verdict=Verdict.ACCEPTED,
    )
    html = candidate_client.get(reverse("questions:track", args=["code"])).content.decode()
    assert "You solved 1 of 1" in html and "Track complete." in html
    assert 'href="/questions/tracks/basics/">Basics</a>' in html


def test_home_page_lists_tracks_with_progress(tracked_bank, candidate_client):
    html = candidate_client.get("/").content.decode()
    assert 'href="/questions/tracks/basics/">Basics</a>' in html
    assert "0 of 2 solved" in html and "Best after Basics." in html


def test_unknown_track_is_a_404(db, client):
    assert client.get(reverse("questions:track", args=["nope"])).status_code == 404


def test_the_real_banks_tracks_name_only_its_questions():
    from questions.loader import default_bank_dir, read_bank

    entries, _ = read_bank(default_bank_dir())
    tracks, errors = read_tracks(default_bank_dir(), {entry.slug for entry in entries})
    assert errors == [] and len(tracks) >= 4


def test_load_bank_command_names_the_bad_track(small_bank, db):
    import io

    from django.core.management.base import CommandError

    small_bank.write("tracks.yaml", "- slug: a\n  name: A\n  questions: [ghost]\n")
    stderr = io.StringIO()
    with pytest.raises(CommandError):
        call_command("load_bank", path=str(small_bank.root), skip_validation=True, strict=True, stderr=stderr)
    assert "tracks.yaml: track a: unknown question slug 'ghost'" in stderr.getvalue()


def test_dump_bank_writes_the_tracks_back(tracked_bank, load, tmp_path):
    call_command("dump_bank", str(tmp_path / "out"))
    Track.objects.all().delete()
    load(tmp_path / "out")
    assert [(t.slug, t.prerequisites, t.question_slugs) for t in Track.objects.all()] == [
        ("basics", [], ["amortised-doubling", "gib-in-bytes"]),
        ("code", ["basics"], ["square-values"]),
    ]


def test_anonymous_track_page_asks_to_sign_in(tracked_bank, client):
    html = client.get(reverse("questions:track", args=["basics"])).content.decode()
    assert "Sign in</a> to keep your progress" in html and "You solved" not in html
    assert html.index("amortised-doubling") < html.index("gib-in-bytes")
