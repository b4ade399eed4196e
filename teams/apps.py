from django.apps import AppConfig


class TeamsConfig(AppConfig):
    name = "teams"
    label = "teams"

    def ready(self):
        # questions sits below teams: it asks through this hook whether a learner is
        # mid-sitting, so an earned editorial never shows during an assessment.
        from questions import hooks

        from .services import integrity

        def in_sitting_with(user, question):
            session, _item = integrity.open_sitting_with_question(user, question.slug)
            return session is not None

        hooks.register_sitting_check(in_sitting_with)

        from submissions.signals import submission_graded

        from . import webhooks

        # The last grading of a closed sitting raises its sitting.graded webhook event.
        submission_graded.connect(webhooks.on_submission_graded, dispatch_uid="teams.webhooks.submission_graded")
