"""The grading harness: the code that runs INSIDE the sandbox.

It imports nothing from Django (the sandbox has no settings, no database and
no network). The host copies this package into the job directory and runs
COMMAND; see protocol.py for how the report comes back.
"""

#: How the host starts the harness inside the sandbox (paths as the sandbox sees them).
COMMAND = ["python3", "-I", "-B", "/job/harness/main.py", "/job"]

#: Reported with every result, so numbers from different harness versions are never mixed up.
HARNESS_VERSION = "1.18"
