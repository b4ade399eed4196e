from django.apps import AppConfig


class QuestionsConfig(AppConfig):
    name = "questions"
    verbose_name = "Question bank"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from .bank_version import record_bank_change
        from .models import ExerciseVersion, Question

        for model in (Question, ExerciseVersion):
            post_save.connect(record_bank_change, sender=model, dispatch_uid=f"bank-version-{model.__name__}-save")
            post_delete.connect(record_bank_change, sender=model, dispatch_uid=f"bank-version-{model.__name__}-delete")
