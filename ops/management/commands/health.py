"""`manage.py health`: the readiness checks of /healthz/ready from a shell, for container
health checks of the services that serve no HTTP (workers, beat). Exit status 0 when ready,
1 when not; the checks' results on stdout as JSON.

--worker NAME also asks that the Celery worker NAME (e.g. celery@$HOSTNAME) beat in the
last minute (ops.heartbeat): a worker whose consumer hung stops beating."""

import json

from django.core.management.base import BaseCommand, CommandError

from ops import health, heartbeat


class Command(BaseCommand):
    help = "Run the readiness checks (database, cache, broker, migrations, workers, disk); exit 1 if any fails."

    def add_arguments(self, parser):
        parser.add_argument("--worker", help="also require a fresh heartbeat from this Celery worker (name@host)")
        parser.add_argument(
            "--skip", action="append", default=[], choices=sorted(health.CHECKS), help="leave a check out (repeatable)"
        )

    def handle(self, *args, **options):
        extra = {}
        if options["worker"]:
            name = options["worker"]

            def check_this_worker():
                if not heartbeat.seen(name):
                    raise health.CheckFailed(f"{name} has not beaten in the last {heartbeat.FRESH_S} s")

            extra["this_worker"] = check_this_worker
        checks = {key: value for key, value in health.CHECKS.items() if key not in options["skip"]}
        results, ready = health.run_checks(extra, checks=checks)
        self.stdout.write(json.dumps({"status": "ready" if ready else "not ready", "checks": results}))
        if not ready:
            raise CommandError("not ready")
