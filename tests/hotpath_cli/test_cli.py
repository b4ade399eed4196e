"""The `hotpath` client against a live server: every command, and every way a user can
get it wrong answered with a message and a non-zero exit, never a traceback."""

import json
import os
import stat
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from api import tokens
from api.models import PersonalAccessToken, Scope
from questions.models import ExerciseVersion
from tests.api.conftest import GRADED_REPORT, fast_password_hashing, own_cache  # noqa: F401  (fixtures)
from tests.submissions.conftest import TINY_FILES, exercise_version, queued  # noqa: F401  (fixtures)
from tests.faults.conftest import port_open  # noqa: F401

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def home(tmp_path):
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def hotpath(home, tmp_path):
    """hotpath(*args, token=None, server=None) -> CompletedProcess, run as a user would, in tmp_path."""

    def run(*args, env=None, timeout=60):
        environment = {k: v for k, v in os.environ.items() if not k.startswith("HOTPATH_")}
        environment.update({"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config"), **(env or {})})
        return subprocess.run(
            [sys.executable, "-m", "hotpath_cli", *args],
            cwd=tmp_path,
            env=environment,
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
        )

    return run


@pytest.fixture
def token(candidate):
    return tokens.create_token(candidate, "cli", Scope.SUBMIT, 30)[1]


@pytest.fixture
def logged_in(hotpath, live_server, token, transactional_db):
    result = hotpath("login", "--server", live_server.url, env={"HOTPATH_TOKEN": token})
    assert result.returncode == 0, result.stderr
    return hotpath


def assert_clean_failure(result, *phrases):
    assert result.returncode == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr and result.stderr.startswith("hotpath: ")
    for phrase in phrases:
        assert phrase in result.stderr


def test_login_stores_the_token_readable_by_the_owner_only(logged_in, home, live_server, token):
    config = home / ".config" / "hotpath" / "config.json"
    assert stat.S_IMODE(config.stat().st_mode) == 0o600
    assert json.loads(config.read_text()) == {"server": live_server.url, "token": token}


def test_login_reads_the_token_from_a_prompt(hotpath, live_server, token, home, transactional_db):
    """getpass reads /dev/tty, so the prompt is driven through a pseudo-terminal."""
    import pty

    pid, fd = pty.fork()
    if pid == 0:  # the child: hotpath login on the terminal
        os.environ.update({"HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")})
        os.environ.pop("HOTPATH_TOKEN", None)
        os.execv(sys.executable, [sys.executable, "-m", "hotpath_cli", "login", "--server", live_server.url])
    output = b""
    while b"token" not in output:
        output += os.read(fd, 1024)
    os.write(fd, token.encode() + b"\n")
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        output += chunk
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, output
    assert b"Logged in" in output and token.encode() not in output


def test_login_to_a_wrong_server(hotpath, live_server, token, transactional_db):
    assert_clean_failure(
        hotpath("login", "--server", live_server.url + "/nowhere", env={"HOTPATH_TOKEN": token}),
        "does not look like a Hotpath server",
    )
    assert_clean_failure(
        hotpath("login", "--server", "http://127.0.0.1:9", env={"HOTPATH_TOKEN": token}), "Cannot reach"
    )
    assert_clean_failure(hotpath("login", "--server", "127.0.0.1:8000", env={"HOTPATH_TOKEN": token}))


def test_bad_expired_and_revoked_tokens(hotpath, logged_in, live_server, candidate):
    assert_clean_failure(
        hotpath("login", "--server", live_server.url, env={"HOTPATH_TOKEN": "hp_wrong"}),
        "not one Hotpath issued",
        "hotpath login",
    )
    PersonalAccessToken.objects.filter(user=candidate).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert_clean_failure(logged_in("list"), "expired", "hotpath login")
    PersonalAccessToken.objects.filter(user=candidate).update(revoked_at=timezone.now())
    assert_clean_failure(logged_in("list"), "revoked")


def test_not_logged_in(hotpath):
    assert_clean_failure(hotpath("list"), "Not logged in")


def test_list_and_pull(logged_in, exercise_version, tmp_path):
    listing = logged_in("list", "--kind", "coding")
    assert listing.returncode == 0 and "tiny-scale" in listing.stdout
    assert "tiny-scale" not in logged_in("list", "--topic", "no-such-topic").stdout
    pulled = logged_in("pull", "tiny-scale")
    assert pulled.returncode == 0, pulled.stderr
    assert (tmp_path / "tiny-scale" / "starter.py").read_text() == TINY_FILES["starter.py"]
    readme = (tmp_path / "tiny-scale" / "README.md").read_text()
    assert "Define `scale`" in readme and "Return `x * 3 + 1`." in readme
    assert_clean_failure(logged_in("pull", "tiny-scale"), "--force")


def test_unknown_slug(logged_in, tmp_path):
    (tmp_path / "mine.py").write_text("x = 1\n")
    assert_clean_failure(logged_in("pull", "no-such-exercise"), "no-such-exercise")
    assert_clean_failure(logged_in("submit", "no-such-exercise", "mine.py"), "no-such-exercise")


def test_files_that_cannot_be_sent(logged_in, exercise_version, tmp_path):
    (tmp_path / "latin1.py").write_bytes(b"name = 'caf\xe9'\n")
    assert_clean_failure(logged_in("submit", "tiny-scale", "latin1.py"), "not UTF-8", "0xe9")
    assert_clean_failure(logged_in("submit", "tiny-scale", "missing.py"), "No such file")


def test_queue_cap_and_rate_limit(logged_in, exercise_version, queued, tmp_path, settings):
    settings.SUBMISSION_MAX_QUEUED_PER_USER = 1
    settings.SUBMISSION_RATE = "2/m"  # each try counts, the refused one too
    (tmp_path / "mine.py").write_text(TINY_FILES["solution.py"])
    first = logged_in("submit", "tiny-scale", "mine.py")
    assert first.returncode == 0 and "Submitted #" in first.stdout
    assert_clean_failure(logged_in("submit", "tiny-scale", "mine.py"), "refused for now", "waiting to be graded")
    assert_clean_failure(logged_in("submit", "tiny-scale", "mine.py"), "too quickly")


def test_show_and_leaderboard(logged_in, candidate, exercise_version):
    from submissions.models import Submission
    from leaderboards.services import record_submission

    submission = Submission.objects.create(
        user=candidate,
        exercise=exercise_version,
        code="x = 1\n",
        status="done",
        verdict="accepted",
        report=GRADED_REPORT,
        speedup=41.5,
        speedup_ci_low=39.0,
        speedup_ci_high=44.0,
        peak_memory_bytes=2_000_000,
        reference_peak_memory_bytes=1_000_000,
        hardware="cpu",
    )
    record_submission(submission)
    shown = logged_in("show", str(submission.pk))
    assert (
        shown.returncode == 0
        and "Accepted" in shown.stdout
        and "41.5x" in shown.stdout
        and "39x to 44x" in shown.stdout
    )
    board = logged_in("leaderboard", "tiny-scale")
    assert board.returncode == 0 and "Your place: #1" in board.stdout and "(you)" in board.stdout
    again = logged_in("again", str(submission.pk))
    assert again.returncode == 0 and "Submitted #" in again.stdout, (again.stdout, again.stderr)
    queued = Submission.objects.latest("id")
    assert queued.pk != submission.pk and queued.program == submission.program
    assert_clean_failure(
        logged_in("again", str(queued.pk)), "Only your own accepted practice answers can be graded again."
    )
    assert_clean_failure(logged_in("show", "999999"), "no submission #999999")


def test_list_marks_gpu_exercises(logged_in, exercise_version):
    """A GPU exercise is graded only where a GPU worker is: the list says which ones are."""
    ExerciseVersion.objects.filter(pk=exercise_version.pk).update(spec={**exercise_version.spec, "target": "gpu"})
    for listing in (logged_in("list"), logged_in("list", "--kind", "coding")):
        assert listing.returncode == 0, listing.stderr
        [row] = [line for line in listing.stdout.splitlines() if line.startswith("tiny-scale")]
        assert "coding, GPU" in row and "GPU: graded only where the server has a GPU worker." in listing.stdout


def test_list_track_shows_progress_and_next(logged_in, candidate, exercise_version):
    from questions.models import Track
    from submissions.models import Submission

    Track.objects.create(slug="numpy-basics", name="NumPy basics", position=0, question_slugs=["tiny-scale"])
    listing = logged_in("list", "--track", "NumPy basics")
    assert listing.returncode == 0, listing.stderr
    assert "NumPy basics: 0 of 1 solved" in listing.stdout and "Next: tiny-scale" in listing.stdout
    Submission.objects.create(
        user=candidate, exercise=exercise_version, code="x = 1\n", status="done", verdict="accepted"
    )
    listing = logged_in("list", "--track", "numpy-basics")
    assert "1 of 1 solved" in listing.stdout and "solved" in listing.stdout and "Track complete." in listing.stdout
    assert_clean_failure(logged_in("list", "--track", "no-such-track"), "no track called 'no-such-track'")


def test_editorial_only_after_own_acceptance(logged_in, candidate, exercise_version):
    from submissions.models import Submission

    assert_clean_failure(logged_in("editorial", "tiny-scale"), "opens once your own practice submission", "accepted")
    question = exercise_version.question
    question.sample_answer = "Multiply in one NumPy expression."
    question.save()
    Submission.objects.create(
        user=candidate, exercise=exercise_version, code="x = 1\n", status="done", verdict="accepted"
    )
    shown = logged_in("editorial", "tiny-scale")
    assert shown.returncode == 0, shown.stderr
    assert "Multiply in one NumPy expression." in shown.stdout and "Model solution" in shown.stdout
    assert TINY_FILES["solution.py"].strip() in shown.stdout


@pytest.mark.slow
def test_submit_wait_grades_for_real(logged_in, exercise_version, tmp_path, request):
    """A real worker grades the tiny exercise: accepted exits 0 with the figures; a wrong answer exits 1."""
    request.getfixturevalue("grading_worker")
    (tmp_path / "fast.py").write_text(TINY_FILES["solution.py"])
    (tmp_path / "wrong.py").write_text("def scale(x):\n    return x * 3.0\n")
    accepted = logged_in("submit", "tiny-scale", "fast.py", "--wait", timeout=300)
    assert accepted.returncode == 0, (accepted.stdout, accepted.stderr)
    assert "Verdict: Accepted" in accepted.stdout and "95% CI" in accepted.stdout and "reference" in accepted.stdout
    wrong = logged_in("submit", "tiny-scale", "wrong.py", "--wait", "--json", timeout=300)
    assert wrong.returncode == 1 and json.loads(wrong.stdout)["verdict"] == "wrong_answer"
