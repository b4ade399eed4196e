from django.apps import AppConfig


class MockInterviewsConfig(AppConfig):
    name = "mock_interviews"
    label = "mock_interviews"
    verbose_name = "Mock interviews"
