from django.apps import AppConfig


class GraderConfig(AppConfig):
    name = "grader"
    verbose_name = "Grader"

    def ready(self):
        # The grader sits above questions: it hands questions what it needs from here
        # (practice counts, exercise validation) instead of questions importing it.
        from questions import hooks

        from . import practice, validation

        hooks.register_coding_practice(
            hooks.CodingPractice(
                users_annotation=practice.users_annotation,
                question_ids=practice.practised_question_ids,
                recent=practice.recent_practice,
            )
        )
        hooks.register_exercise_validator(validation.validate_exercise)
