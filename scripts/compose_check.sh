#!/usr/bin/env bash
# `make compose-check`: the production stack, for real, from a fresh clone of this
# repository's committed HEAD:
#   1. builds every image (scripts/build_images.sh: engine, base, wheels, images);
#   2. starts docker-compose.yml with the mail catcher, waits for web's health check,
#      loads the question bank;
#   3. scripts/compose_check.py over HTTP: sign up (and verify the address from the
#      mail), submit python-loop-to-numpy's model solution and a wrong answer through
#      the form, wait for accepted and wrong_answer, invite a team member and find
#      the invitation in the mail catcher, open an interview room and send a message
#      through its websocket, on web's own port as the browser does;
#   4. checks beat sent its periodic tasks and a worker ran them;
#   5. again with two CPU workers (--scale worker-cpu=2): both must take a grading (by the
#      end of step 6 when it runs);
#   6. the load-and-fault run, short (bench/compose_load.py; docs/benchmarks.md, "The compose
#      stack under load and faults"): LOAD_LEARNERS learners (6) browse, check and submit for
#      LOAD_MINUTES (2) while a busy CPU worker is killed and Redis and PostgreSQL restart;
#      every submission must end graded once and the metrics must show each fault. Its
#      results are left in LOAD_OUT when that is set; LOAD_MINUTES=0 skips it;
#   7. a backup drill: backs the stack up (a sitting added), destroys the database's volume, brings it up
#      again, restores, and checks every counted table came back;
#   8. tears everything down, volumes included. On failure it prints the logs of
#      the services, and exits 1.
# Plain HTTP on localhost stands in for the TLS proxy: requests carry X-Forwarded-Proto
# and cookies are not Secure-only (SECURE_COOKIES=0); everything else is as deployed.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
PYTHON="${PYTHON:-$REPO/.venv/bin/python}"
[ -x "$PYTHON" ] || PYTHON=python3
export PYTHON
STARTED=$SECONDS
step() { echo "=== [$((SECONDS - STARTED)) s] $*"; }

CLONE="$(mktemp -d /tmp/hotpath-compose-check-XXXXXX)"
PROJECT="hotpathcheck$$"
git clone --quiet "$REPO" "$CLONE"
cd "$CLONE"
echo "Fresh clone of $(git log --oneline -1) in $CLONE"

free_port() { "$PYTHON" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
export SECRET_KEY="$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(50))')"
export POSTGRES_PASSWORD="$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(32))')"
export EMAIL_URL=smtp://mailcatcher:1025
export SECURE_COOKIES=0
export WEB_PORT="$(free_port)" MAILCATCHER_PORT="$(free_port)"
export ALLOWED_HOSTS="127.0.0.1,localhost"
export METRICS_TOKEN="$("$PYTHON" -c 'import secrets; print(secrets.token_urlsafe(32))')"
export DOCKER_GID="$(stat -c %g /var/run/docker.sock 2>/dev/null || echo 0)"  # again once the engine surely runs
compose() { docker-compose --project-name "$PROJECT" --profile mailcatcher "$@"; }

FAILED=1
finish() {
  if [ "$FAILED" = 1 ]; then
    echo "=== compose-check FAILED; the services' logs:" >&2
    compose ps >&2 || true
    for service in $(compose config --services); do
      echo "--- $service" >&2
      compose logs --no-color --tail 80 "$service" >&2 || true
    done
  fi
  step "tearing down (volumes included)"
  compose down --volumes --remove-orphans --timeout 20 >/dev/null 2>&1 || true
  rm -rf "$CLONE"
  [ "$FAILED" = 0 ] && step "compose-check passed" || true
}
trap finish EXIT

step "building the images"
scripts/build_images.sh
export DOCKER_GID="$(stat -c %g /var/run/docker.sock)"

step "starting the stack"
compose up -d
wait_healthy() {
  local container status
  container="$(compose ps -q web)"
  for _ in $(seq 1 90); do
    status="$(docker inspect --format '{{.State.Health.Status}}' "$container" 2>/dev/null || echo missing)"
    [ "$status" = healthy ] && return 0
    sleep 2
  done
  echo "web is not healthy after 180 s (last status: $status)" >&2
  return 1
}
wait_healthy
curl -fsS "http://127.0.0.1:$WEB_PORT/healthz" -H 'Host: not-an-allowed-host.example' >/dev/null \
  || { echo "/healthz depends on the Host header" >&2; exit 1; }
curl -fsS "http://127.0.0.1:$WEB_PORT/healthz/ready" | grep -q '"status": "ready"' \
  || { echo "/healthz/ready is not ready" >&2; exit 1; }
# Read whole before grep: grep -q stops at its match, and under pipefail curl's broken pipe would fail the step.
metrics=$(curl -fsS "http://127.0.0.1:$WEB_PORT/metrics" -H "Authorization: Bearer $METRICS_TOKEN")
grep -q '^hotpath_queue_depth{queue="cpu"}' <<<"$metrics" \
  || { echo "/metrics does not export the queue depth" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$WEB_PORT/metrics")" != 200 ] \
  || { echo "/metrics answers without the token" >&2; exit 1; }
step "web is healthy; loading the bank (python-loop-to-numpy is graded below, through the site)"
compose run --rm --no-deps worker-cpu python manage.py load_bank --skip-validation >/dev/null

step "signing up and grading through the web form"
"$PYTHON" scripts/compose_check.py --web "http://127.0.0.1:$WEB_PORT" --mail "http://127.0.0.1:$MAILCATCHER_PORT" --invite --room

step "checking that beat sent its periodic tasks and a worker ran them"
for _ in $(seq 1 60); do
  compose logs --no-color beat | grep -q "Sending due task" \
    && compose logs --no-color worker-cpu | grep -Eq "Task (teams|grader)\.[a-z_]+\[[^]]+\] succeeded" && break
  sleep 3
done
compose logs --no-color beat | grep "Sending due task" | tail -n 2
compose logs --no-color worker-cpu | grep -E "Task (teams|grader)\.[a-z_]+\[[^]]+\] succeeded" | grep -v grade_submission | tail -n 2 | grep . \
  || { echo "no periodic task ran on a worker" >&2; exit 1; }

step "once more with two CPU workers"
compose up -d --scale worker-cpu=2
for container in $(compose ps -q worker-cpu); do
  for _ in $(seq 1 60); do
    docker logs "$container" 2>&1 | grep -q "ready\." && break
    sleep 2
  done
done
round_two="$(date -u +%Y-%m-%dT%H:%M:%S)"
"$PYTHON" scripts/compose_check.py --web "http://127.0.0.1:$WEB_PORT" --mail "http://127.0.0.1:$MAILCATCHER_PORT"

LOAD_MINUTES="${LOAD_MINUTES:-2}"
if [ "$LOAD_MINUTES" != 0 ]; then
  step "load and faults for $LOAD_MINUTES min: ${LOAD_LEARNERS:-6} learners, a worker killed, Redis and PostgreSQL restarted"
  # A short outage and a worker down long enough for its heartbeat to go stale in the scrapes;
  # the documented run (docs/benchmarks.md) keeps them down longer.
  "$PYTHON" bench/compose_load.py --project "$PROJECT" --web "http://127.0.0.1:$WEB_PORT" \
    --learners "${LOAD_LEARNERS:-6}" --minutes "$LOAD_MINUTES" \
    --worker-down-s "${LOAD_WORKER_DOWN_S:-40}" --outage-s "${LOAD_OUTAGE_S:-8}" \
    --settle-s "${LOAD_SETTLE_S:-300}" --out "${LOAD_OUT:-$CLONE/load-results}"
fi

# Counted after the load run when there is one: two submissions alone can both go to the first
# worker while the second still measures its host at start-up.
busy=0
for container in $(compose ps -q worker-cpu); do
  # Read whole before grep: grep -q stops at its match, and under pipefail docker's broken pipe would fail the test.
  since_round_two=$(docker logs --since "$round_two" "$container" 2>&1)
  if grep -q "Task grader.grade_submission\[[^]]*\] succeeded" <<<"$since_round_two"; then
    busy=$((busy + 1))
  fi
done
echo "$busy of 2 CPU workers graded a submission"
[ "$busy" = 2 ] || { echo "with two CPU workers, only $busy took work" >&2; exit 1; }

step "backup drill: back up, destroy the database volume, restore (docs/operations.md, \"Backups\")"
# A candidate's sitting for the first account, so the backup holds one of everything it promises to keep.
compose exec -T web python manage.py shell >/dev/null <<'PY'
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from teams.models import Assessment, CandidateInvitation, CandidateSession, Organisation
now, user = timezone.now(), get_user_model().objects.order_by("pk").first()
assessment = Assessment.objects.create(
    organisation=Organisation.objects.order_by("pk").first(), title="Backup drill", time_limit_minutes=60,
    opens_at=now, closes_at=now + timedelta(days=1), created_by=user, published_at=now)
invitation = CandidateInvitation.objects.create(
    assessment=assessment, email=user.email, token_hash="0" * 64, expires_at=now + timedelta(days=1), used_at=now)
CandidateSession.objects.create(invitation=invitation, assessment=assessment, candidate=user, started_at=now)
PY
compose exec -T web python manage.py backup - >drill-before.tar.gz
compose stop web worker-cpu worker-check beat >/dev/null 2>&1
compose rm --force --stop postgres >/dev/null 2>&1
docker volume rm "${PROJECT}_postgres-data" >/dev/null
compose up -d postgres
for _ in $(seq 1 60); do
  [ "$(docker inspect --format '{{.State.Health.Status}}' "$(compose ps -q postgres)")" = healthy ] && break
  sleep 2
done
compose run --rm --no-deps -T web python manage.py restore - <drill-before.tar.gz
compose up -d
wait_healthy
compose exec -T web python manage.py backup - >drill-after.tar.gz
"$PYTHON" - drill-before.tar.gz drill-after.tar.gz <<'PY'
import json, sys, tarfile
before, after = (json.load(tarfile.open(path).extractfile("manifest.json"))["counts"] for path in sys.argv[1:])
print("before:", before, "\nafter: ", after)
missing = [label for label in ("users", "submissions", "submission_reports", "leaderboard_entries", "sittings")
           if not before.get(label)]
if missing or after != before:
    sys.exit(f"the restore did not bring everything back (none before: {missing})")
PY

FAILED=0
