from tests.e2e.conftest import grading_worker  # noqa: F401  (the real Celery worker of the browser tests)
