"""The judge's host side runs in the web and worker image, which has no NumPy (requirements/web.txt):
importing it must not need NumPy, only the sandbox's harness does."""

import subprocess
import sys


def test_the_host_side_of_the_judge_imports_without_numpy():
    blocked = "import sys; sys.modules['numpy'] = None; import grader.grading, grader.host_limits, grader.validation"
    result = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
