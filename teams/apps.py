from django.apps import AppConfig


class TeamsConfig(AppConfig):
    name = "teams"
    label = "teams"

    def ready(self):
        from submissions.signals import submission_graded

        from . import webhooks

        # The last grading of a closed sitting raises its sitting.graded webhook event.
        submission_graded.connect(webhooks.on_submission_graded, dispatch_uid="teams.webhooks.submission_graded")
