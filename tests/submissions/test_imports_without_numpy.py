"""The web and worker image has no NumPy (requirements/web.txt): every module the
web side loads, the views, the API and the templates' tags included, must import
without it. Failed before: the own-input rules lived in a harness module that
imports NumPy, and the image's collectstatic stopped with ModuleNotFoundError."""

import os
import subprocess
import sys

WEB_SIDE = (
    "import sys; sys.modules['numpy'] = None; import django; django.setup(); "
    "import interview_platform.urls, api.urls, api.serializers, submissions.services.intake, "
    "submissions.templatetags.submission_tags, grader.grading"
)


def test_the_web_side_imports_without_numpy():
    env = dict(os.environ, DJANGO_SETTINGS_MODULE="interview_platform.settings")
    result = subprocess.run([sys.executable, "-c", WEB_SIDE], capture_output=True, text=True, env=env, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
