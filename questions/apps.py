from django.apps import AppConfig


class QuestionsConfig(AppConfig):
    name = "questions"
    verbose_name = "Question bank"

    def ready(self):
        from django.db.models.signals import post_delete, post_save

        from .bank_version import forget_bank_version
        from .models import ExerciseVersion, Question

        for model in (Question, ExerciseVersion):
            post_save.connect(forget_bank_version, sender=model, dispatch_uid=f"bank-version-{model.__name__}-save")
            post_delete.connect(forget_bank_version, sender=model, dispatch_uid=f"bank-version-{model.__name__}-delete")
