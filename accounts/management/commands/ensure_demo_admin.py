import secrets

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

from accounts.verification import mark_verified


class Command(BaseCommand):
    help = "Creates the demo admin account once and prints its login; later runs leave it alone."

    def add_arguments(self, parser):
        parser.add_argument("--username", default="admin")

    def handle(self, *args, username, **options):
        User = get_user_model()
        if User.objects.filter(username=username).exists():
            self.stdout.write(f"Demo admin '{username}' already exists (its password was printed when it was created).")
            return
        password = secrets.token_urlsafe(12)
        user = User.objects.create_superuser(username=username, email=f"{username}@hotpath.local", password=password)
        mark_verified(user)  # its made-up address receives no mail, and the demo should grade code at once
        self.stdout.write(
            self.style.SUCCESS(
                f"Created demo admin. Sign in at http://127.0.0.1:8000/accounts/login/ as {username} / {password} "
                "(shown only this once)."
            )
        )
