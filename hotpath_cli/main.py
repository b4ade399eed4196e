"""hotpath: login, list, pull, check, submit, again, show, leaderboard, editorial. See `hotpath --help`.

Exit status: 0 done (and, for check/submit --wait, accepted); 1 graded but not accepted;
2 anything the user can fix (a message says what); 130 interrupted."""

import argparse
import getpass
import json
import os
import sys
import time
from pathlib import Path

from . import config
from .client import Api
from .errors import CliError
from .render import exercise_readme, format_board, format_submission, format_table, printable

POLL_INTERVAL_S = 1.0
SPINNER = "|/-\\"
BAR_WIDTH = 24
NOT_ACCEPTED = 1


def say(text, file=None):
    """Print a line to the terminal (stdout unless `file`), without the control characters
    a server-provided string in it could use to rewrite the terminal."""
    print(printable(text), file=file)


def read_code(path):
    """The file's text; a clear error for a missing file or one that is not UTF-8."""
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise CliError(f"No such file: {path}") from None
    except (IsADirectoryError, PermissionError) as exc:
        raise CliError(f"Cannot read {path}: {exc.strerror}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CliError(
            f"{path} is not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}); save it as UTF-8 and try again."
        ) from None


def api_from_config():
    return Api(*config.load())


def cmd_login(args):
    token = os.environ.get("HOTPATH_TOKEN") or getpass.getpass("Personal access token (from your profile page): ")
    token = token.strip()
    if not token:
        raise CliError("No token given.")
    me = Api(args.server, token).get("me/")
    path = config.save(args.server.rstrip("/"), token)
    scope = me["token"]["scope"] if me.get("token") else "session"
    say(
        f"Logged in to {args.server} as {me['username']} (token scope: {scope}; expires {me['token']['expires_at'][:10]})."
    )
    say(f"Saved to {path} (readable by you only).")
    return 0


def cmd_list(args):
    if args.track:
        return list_track(api_from_config(), args.track)
    api = api_from_config()
    filters = {"topic": args.topic, "difficulty": args.difficulty}
    exercises = api.all_pages("exercises/", **filters) if args.kind in (None, "coding") else []
    rows = exercises if args.kind == "coding" else api.all_pages("questions/", kind=args.kind, **filters)
    if not rows:
        say("Nothing matches.")
        return 0
    on_gpu = {exercise["slug"] for exercise in exercises if exercise["target"] == "gpu"}
    table = [
        [r["slug"], f"{r['kind']}, GPU" if r["slug"] in on_gpu else r["kind"], r["difficulty"], r["topic"]]
        for r in rows
    ]
    say(format_table(["slug", "kind", "difficulty", "topic"], table))
    if on_gpu.intersection(r["slug"] for r in rows):
        say("GPU: graded only where the server has a GPU worker.")
    return 0


def list_track(api, name):
    """A track's questions in order with the user's progress, then the next one to do.
    `name` is the track's slug or its name ("GPU kernels" -> gpu-kernels)."""
    slug = "-".join(name.lower().split())
    track = api.get(f"tracks/{slug}/")
    say(f"{track['name']}: {track['solved']} of {track['questions']} solved, {track['practised']} practised.")
    if track["prerequisites"]:
        say(f"Best after: {', '.join(track['prerequisites'])}.")
    rows = [
        [str(position), item["slug"], item["kind"], item["difficulty"], _item_status(item)]
        for position, item in enumerate(track["items"], start=1)
    ]
    say(format_table(["#", "slug", "kind", "difficulty", "status"], rows))
    say(f"Next: {track['next']}" if track["next"] else "Track complete.")
    return 0


def _item_status(item):
    if item["solved"]:
        return "solved"
    return "practised" if item["practised"] else "-"


def cmd_pull(args):
    exercise = api_from_config().get(f"exercises/{args.slug}/")
    folder = Path(args.dir or args.slug)
    folder.mkdir(parents=True, exist_ok=True)
    starter = folder / "starter.py"
    if starter.exists() and not args.force:
        raise CliError(f"{starter} exists; pass --force to overwrite it.")
    starter.write_text(exercise["starter_code"], encoding="utf-8")
    (folder / "README.md").write_text(exercise_readme(exercise), encoding="utf-8")
    say(f"Wrote {starter} and {folder / 'README.md'} (v{exercise['version']}: define {exercise['entry_point']}).")
    say(
        f"Next: edit {starter}, then `hotpath check {args.slug} {starter}` or `hotpath submit {args.slug} {starter} --wait`."
    )
    return 0


def progress_line(submission, tick, waited_s):
    """One terminal line: a bar once the server can estimate the fraction done (else a
    spinner), the phase in words, and the time waited and left."""
    progress = submission["progress"]
    fraction = progress.get("fraction")
    if fraction is not None:
        filled = round(BAR_WIDTH * min(max(fraction, 0.0), 1.0))
        gauge = f"[{'#' * filled}{'.' * (BAR_WIDTH - filled)}] {fraction:4.0%}"
    else:
        gauge = SPINNER[tick % len(SPINNER)]
    label = progress.get("label") or progress.get("state") or submission["status"]
    if progress.get("waiting_for_gpu"):
        label += ", waiting for a GPU worker"
    left = f", about {progress['eta_s']:.0f} s left" if progress.get("eta_s") is not None else ""
    return f"{gauge} #{submission['id']} {label} ({waited_s:.0f} s{left})"


def wait_for(api, submission, show_progress):
    """Poll until graded, redrawing the progress line on stderr (a terminal only)."""
    started = time.monotonic()
    tick = 0
    width = 0
    while not submission["is_final"]:
        if show_progress:
            line = printable(progress_line(submission, tick, time.monotonic() - started))
            sys.stderr.write("\r" + line.ljust(width))
            sys.stderr.flush()
            width = len(line)
        tick += 1
        time.sleep(POLL_INTERVAL_S)
        submission = api.get(f"submissions/{submission['id']}/")
    if show_progress:
        sys.stderr.write("\r" + " " * width + "\r")
        sys.stderr.flush()
    return submission


def submit(args, purpose):
    code = read_code(args.file)
    body = {"exercise": args.slug, "code": code, "purpose": purpose}
    custom = custom_input(args)
    if custom is not None:
        body["custom_input"] = custom
    api = api_from_config()
    return follow(api, api.post("submissions/", body), args)


def custom_input(args):
    """`check`'s own input, from --size, --seed and --args (JSON), or None to run the check
    sizes. The server checks it (and the grader again); here only the JSON is read."""
    size, seed, values = getattr(args, "size", None), getattr(args, "seed", None), getattr(args, "args", None)
    if values is not None:
        if size is not None or seed is not None:
            raise CliError("Give either --size/--seed or --args, not both.")
        try:
            return {"args": json.loads(values, parse_constant=_no_constant)}
        except ValueError as exc:
            raise CliError(
                f"--args is not valid JSON ({exc}): give a list with one value per argument, e.g. '[[1.5, 2.0], 3]'."
            ) from None
    given = {name: value for name, value in (("size", size), ("seed", seed)) if value is not None}
    return given or None


def _no_constant(name):
    raise ValueError(f'{name} is not JSON; write "nan", "inf" or "-inf" in quotes')


def cmd_again(args):
    api = api_from_config()
    return follow(api, api.post(f"submissions/{args.submission}/grade-again/", {}), args)


def follow(api, submission, args):
    """Say what was submitted, or with --wait show its progress, then its verdict."""
    if not args.wait:
        if args.json:
            say(json.dumps(submission, indent=1))
        else:
            say(f"Submitted #{submission['id']} ({submission['status']}): {submission['web_url']}")
        return 0
    submission = wait_for(api, submission, show_progress=not args.json and sys.stderr.isatty())
    say(json.dumps(submission, indent=1) if args.json else format_submission(submission))
    return 0 if submission["accepted"] else NOT_ACCEPTED


def cmd_check(args):
    args.wait, args.json = True, getattr(args, "json", False)
    return submit(args, "check")


def cmd_submit(args):
    return submit(args, "practice")


def cmd_show(args):
    submission = api_from_config().get(f"submissions/{args.submission}/")
    say(json.dumps(submission, indent=1) if args.json else format_submission(submission))
    return 0


def cmd_leaderboard(args):
    board = api_from_config().get(f"leaderboards/exercises/{args.slug}/", hardware=args.hardware, page=args.page)
    say(format_board(board))
    return 0


def cmd_editorial(args):
    """The exercise's sample answer and model solution; the server refuses (exit 2, its
    message says why) until the user's own practice submission is accepted."""
    editorial = api_from_config().get(f"exercises/{args.slug}/editorial/")
    say(editorial["sample_answer"])
    say("\n# Model solution\n")
    say(editorial["solution_code"])
    return 0


def parser():
    top = argparse.ArgumentParser(
        prog="hotpath", description="Practise Hotpath exercises from your own editor and terminal."
    )
    commands = top.add_subparsers(dest="command", required=True, metavar="COMMAND")

    login = commands.add_parser("login", help="store a personal access token for a server")
    login.add_argument("--server", required=True, help="e.g. http://127.0.0.1:8000")
    login.set_defaults(run=cmd_login)

    listing = commands.add_parser("list", help="list questions and exercises")
    listing.add_argument("--topic", help="a topic's name or slug")
    listing.add_argument("--kind", choices=["concept", "numeric", "coding"])
    listing.add_argument("--difficulty", choices=["easy", "medium", "hard"])
    listing.add_argument("--track", help="a track's slug or name: its questions in order, with your progress")
    listing.set_defaults(run=cmd_list)

    pull = commands.add_parser("pull", help="write an exercise's starter and contract into a folder")
    pull.add_argument("slug")
    pull.add_argument("--dir", help="the folder (default: the slug)")
    pull.add_argument("--force", action="store_true", help="overwrite an existing starter.py")
    pull.set_defaults(run=cmd_pull)

    check = commands.add_parser(
        "check",
        help="quick check: small inputs, correctness only; or your own input beside the reference's answer; waits for the verdict",
    )
    check.add_argument("slug")
    check.add_argument("file")
    check.add_argument(
        "--size", type=int, help="run on your own input of this size (at most the exercise's largest check size)"
    )
    check.add_argument("--seed", type=int, help="with --size: the seed, so the same input comes again")
    check.add_argument(
        "--args",
        metavar="JSON",
        help="run on these literal arguments: a JSON list, one value per argument, e.g. '[[0.5, 3.0], 2]'",
    )
    check.add_argument("--json", action="store_true", help="print the submission as JSON")
    check.set_defaults(run=cmd_check)

    submit_cmd = commands.add_parser("submit", help="submit for grading (speed and memory against the reference)")
    submit_cmd.add_argument("slug")
    submit_cmd.add_argument("file")
    submit_cmd.add_argument(
        "--wait", action="store_true", help="show progress, then the verdict; exit 1 unless accepted"
    )
    submit_cmd.add_argument("--json", action="store_true", help="print the submission as JSON")
    submit_cmd.set_defaults(run=cmd_submit)

    again = commands.add_parser(
        "again",
        help="grade one of your accepted answers again (the leaderboard counts the same code by its middle grading)",
    )
    again.add_argument("submission", type=int)
    again.add_argument("--wait", action="store_true", help="show progress, then the verdict; exit 1 unless accepted")
    again.add_argument("--json", action="store_true", help="print the submission as JSON")
    again.set_defaults(run=cmd_again)

    show = commands.add_parser("show", help="show one of your submissions")
    show.add_argument("submission", type=int)
    show.add_argument("--json", action="store_true")
    show.set_defaults(run=cmd_show)

    board = commands.add_parser("leaderboard", help="an exercise's leaderboard and your place on it")
    board.add_argument("slug")
    board.add_argument("--hardware", help="cpu (default) or a GPU model")
    board.add_argument("--page", type=int, default=1)
    board.set_defaults(run=cmd_leaderboard)
    editorial = commands.add_parser(
        "editorial", help="an exercise's sample answer and model solution, once you solved it"
    )
    editorial.add_argument("slug")
    editorial.set_defaults(run=cmd_editorial)
    return top


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        return args.run(args)
    except CliError as exc:
        say(f"hotpath: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        say("\nhotpath: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`hotpath list | head`): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
