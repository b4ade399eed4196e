"""Keystroke-to-other-screen latency in interview rooms, over real websockets.

Starts uvicorn on 127.0.0.1 (one process, the in-memory channel layer unless --redis-url
is given, as `make run` serves rooms) on a PostgreSQL database of its own, opens the
interviewer's and the candidate's connections to each of N rooms, and in every room at
once has the interviewer type one character every --interval seconds. Each keystroke is
a push of one step (as the editor sends it); its latency is the time from sending it to
the candidate's connection receiving it, which includes the server applying and storing
it under the room's row lock. Prints the median and 99th percentile for each N.

    .venv/bin/python bench/room_latency.py [--rooms 1 10 100] [--seconds 10] [--interval 0.2]
"""

import argparse
import asyncio
import json
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.request

from common import ROOT, create_database, setup_django

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/hotpath_bench_rooms"
STARTER = "def transform(values):\n    return values\n"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_rooms(count):
    """`count` rooms on one small exercise, each with its two people joined; their session cookies."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from questions.models import ExerciseVersion, Kind, Question
    from rooms import services

    question = Question.objects.create(
        slug="bench-room", title="Bench room", topic="Bench", difficulty="easy", kind=Kind.CODING, prompt="Type."
    )
    ExerciseVersion.objects.create(
        question=question,
        number=1,
        spec={"target": "cpu", "entry_point": "transform", "sizes": [10]},
        reference_code=STARTER,
        starter_code=STARTER,
        inputs_code="",
        solution_code=STARTER,
        content_hash="bench",
    )
    users = get_user_model().objects

    def session_of(user):
        client = Client()
        client.force_login(user)
        return client.cookies["sessionid"].value

    rooms = []
    for number in range(count):
        interviewer = users.create_user(f"ivy{number}", password=None)
        candidate = users.create_user(f"cand{number}", password=None)
        room = services.open_room(interviewer, question.slug)
        services.join(candidate, room.invite_token)
        rooms.append((str(room.public_id), session_of(interviewer), session_of(candidate)))
    return rooms


async def connect(base, room_id, session):
    import websockets

    socket_ = await websockets.connect(
        f"ws://{base}/ws/rooms/{room_id}/",
        origin=f"http://{base}",
        additional_headers=[("Cookie", f"sessionid={session}")],
    )
    hello = json.loads(await socket_.recv())
    assert hello["event"] == "hello", hello
    return socket_, hello


async def steps_only(socket_):
    """The next steps message on this connection (cursors and the like are skipped)."""
    while True:
        message = json.loads(await socket_.recv())
        if message["event"] == "steps":
            return message
        if message["event"] == "error":
            raise RuntimeError(message["message"])


async def type_in_room(base, room, seconds, interval, latencies):
    room_id, interviewer_session, candidate_session = room
    typist, hello = await connect(base, room_id, interviewer_session)
    watcher, _ = await connect(base, room_id, candidate_session)
    version, length = hello["version"], len(hello["doc"])
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            sent = time.perf_counter()
            step = {"clientID": "bench", "changes": [length, [0, "x"]]}
            await typist.send(json.dumps({"type": "push", "version": version, "updates": [step]}))
            seen = await steps_only(watcher)
            latencies.append(time.perf_counter() - sent)
            assert seen["version"] == version, seen
            await steps_only(typist)  # its own step back: confirmed
            version, length = version + 1, length + 1
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - sent)))
    finally:
        await typist.close()
        await watcher.close()


def measure(base, rooms, seconds, interval):
    latencies = []

    async def run_all():
        await asyncio.gather(*(type_in_room(base, room, seconds, interval, latencies) for room in rooms))

    asyncio.run(run_all())
    ordered = sorted(latencies)
    return {
        "rooms": len(rooms),
        "keystrokes": len(ordered),
        "median_ms": statistics.median(ordered) * 1000,
        "p99_ms": ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))] * 1000,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--seconds", type=float, default=10.0, help="typing time per configuration")
    parser.add_argument("--interval", type=float, default=0.2, help="seconds between one typist's keystrokes")
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL)
    parser.add_argument("--redis-url", default="", help="Channels' Redis layer instead of the in-memory one")
    options = parser.parse_args()

    create_database(options.database_url, fresh=True)
    environment = {
        "DATABASE_URL": options.database_url,
        "REDIS_URL": options.redis_url,
        "SECRET_KEY": secrets.token_urlsafe(50),
        "HOTPATH_RUN_DIR": str(ROOT / ".run" / "bench-rooms"),
    }
    setup_django(environment)
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    rooms = make_rooms(max(options.rooms))
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--lifespan",
            "off",
            "--log-level",
            "warning",
            "interview_platform.asgi:application",
        ],
        cwd=ROOT,
        env={**os.environ, **environment},
    )
    try:
        for _ in range(200):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz/live", timeout=2)
                break
            except OSError:
                time.sleep(0.1)
        print(
            f"load average before: {os.getloadavg()[0]:.2f}; typing every {options.interval} s for {options.seconds} s"
        )
        print("| rooms | keystrokes | median (ms) | p99 (ms) |")
        print("| ---: | ---: | ---: | ---: |")
        for count in options.rooms:
            result = measure(f"127.0.0.1:{port}", rooms[:count], options.seconds, options.interval)
            print(
                f"| {result['rooms']} | {result['keystrokes']} | {result['median_ms']:.1f} | {result['p99_ms']:.1f} |",
                flush=True,
            )
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        server.terminate()
        server.wait(timeout=15)


if __name__ == "__main__":
    main()
