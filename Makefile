# Hotpath: `make run` to try it, `make test` to check it. Both set everything up on a fresh machine.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test test-fast test-judge lint setup sandbox-deps system-deps worker gpu-worker bench clean images compose-check mutants

$(STAMP): requirements.txt $(wildcard requirements/*.txt)
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11 or newer is needed"'
	test -d $(VENV) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# bubblewrap for the sandbox; the test suite also needs Chromium for the browser tests.
sandbox-deps:
	@HOTPATH_SKIP_BROWSER=1 scripts/ensure-system-deps.sh

system-deps:
	@scripts/ensure-system-deps.sh

setup: $(STAMP) sandbox-deps
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_bank
	$(PY) manage.py ensure_demo_admin

run: setup
	$(PY) scripts/run_dev.py

worker: $(STAMP)
	$(VENV)/bin/celery -A interview_platform worker -Q cpu,check --concurrency 1 --loglevel INFO

gpu-worker: $(STAMP)
	$(PY) manage.py gpu_worker

# The run gets its own HOTPATH_RUN_DIR (filesystem broker and file cache), so a `make run` beside it keeps its
# tasks and the tests keep theirs; a folder given in the environment is used as it is.
test: $(STAMP) system-deps
	@run_dir=$$(mktemp -d -t hotpath-test-run.XXXXXX); \
	HOTPATH_RUN_DIR="$${HOTPATH_RUN_DIR:-$$run_dir}" $(VENV)/bin/pytest $(PYTEST_ARGS); status=$$?; \
	rm -rf "$$run_dir"; exit $$status

# The fast lane (docs/testing.md): unit and web tests only, under 3 minutes on 2 cores. tests/conftest.py marks
# each test that grades in the sandbox, starts the harness, a browser, a worker process or Docker, by what it uses;
# HOTPATH_FAST_LANE=1 fails one it missed. `make test` still runs them all.
FAST_MARKERS := not sandbox and not browser and not slow and not docker and not gpu
test-fast: $(STAMP)
	@run_dir=$$(mktemp -d -t hotpath-test-run.XXXXXX); \
	HOTPATH_FAST_LANE=1 HOTPATH_RUN_DIR="$${HOTPATH_RUN_DIR:-$$run_dir}" $(VENV)/bin/pytest -m "$(FAST_MARKERS)" $(PYTEST_ARGS); \
	status=$$?; rm -rf "$$run_dir"; exit $$status

# The judge (grader/: harness, sandbox backends, grading) on its own, without Django: its tests
# in tests/grader and tests/harness, under bubblewrap (make test runs them too).
test-judge: $(STAMP) sandbox-deps
	$(VENV)/bin/pytest -p no:django -W 'ignore:Unknown config option:pytest.PytestConfigWarning' tests/grader tests/harness $(PYTEST_ARGS)

# ruff (pyproject.toml): lint findings older than the rules are listed there per file; every file has ruff format's layout.
# lint-imports: the import contracts in pyproject.toml (which layer may import which; the judge without Django).
# mypy: the judge's types (pyproject.toml).
lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy

# Production: every image docker-compose.yml runs, built here without a registry (installs and
# starts the Docker engine first where it may); then the whole stack, for real, from a fresh clone.
images: $(STAMP)
	PYTHON=$(PY) scripts/build_images.sh

compose-check: $(STAMP)
	scripts/compose_check.sh

# Mutation testing of the code behind verdicts, speedups and ranks (docs/testing.md).
# MUTANTS_ARGS="--module compare --show-survivors" narrows it.
mutants: $(STAMP)
	$(PY) scripts/mutants.py $(MUTANTS_ARGS)

bench: $(STAMP) sandbox-deps
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) .run db.sqlite3 staticfiles
