# Two commands: `make demo` runs the product, `make test` runs the tests. Both set everything
# up on a fresh machine with only Python 3.11+ (virtualenv, pinned install, migrations).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
# Without DATABASE_URL / CELERY_BROKER_URL the embedded PostgreSQL and the filesystem broker
# are used; stop the embedded server again when a command that started it ends.
STOP_EMBEDDED := if [ -z "$$DATABASE_URL" ]; then $(PY) -m casino.embedded stop; fi

.PHONY: demo test setup setup-dev migrate lint format bench screenshots client stop clean

demo: setup
	CASINO_ENV=development $(PY) manage.py migrate --no-input
	CASINO_ENV=development $(PY) manage.py demo $(DEMO_ARGS); status=$$?; $(STOP_EMBEDDED); exit $$status

# Two test processes (pytest-xdist, a file at a time); conftest.py gives the second an embedded
# PostgreSQL server of its own. TEST_PROCESSES=0 runs every test in one process.
TEST_PROCESSES ?= 2
test: setup-dev
	CASINO_ENV=test $(PY) -m pytest -n $(TEST_PROCESSES) --dist loadfile $(PYTEST_ARGS); status=$$?; $(STOP_EMBEDDED); exit $$status

$(VENV)/.installed: requirements.txt
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $@

# The tests also install the game maths extra (requirements-maths.txt: numba, numpy), which
# the demo does without.
$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt requirements-maths.txt requirements-otel.txt
	$(PY) -m pip install --quiet -r requirements-dev.txt
	@# Browser tests drive Debian's chromium (Playwright's own browser download is not used)
	@# and render the report PDFs of the README's tour with poppler's pdftoppm.
	@(command -v chromium && command -v pdftoppm) >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
		(apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver poppler-utils >/dev/null)
	touch $@

setup: $(VENV)/.installed
setup-dev: $(VENV)/.installed-dev

migrate: setup
	CASINO_ENV=development $(PY) manage.py migrate --no-input

lint: setup-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	CASINO_ENV=test $(PY) manage.py makemigrations --check --dry-run

format: setup-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

bench: setup-dev
	CASINO_ENV=test $(PY) -m bench; status=$$?; $(STOP_EMBEDDED); exit $$status

# The README's tour: the browser tests that take its pictures, writing into docs/screenshots/.
screenshots: setup-dev
	CASINO_ENV=test TOUR_SCREENSHOTS_DIR=docs/screenshots $(PY) -m pytest -p no:cacheprovider tests/browser/test_tour.py; status=$$?; $(STOP_EMBEDDED); exit $$status

# The typed Python client (clients/casino_client) and the schema it is generated from
# (clients/openapi.json), regenerated after any API change; tests/clients fails until then.
client: setup-dev
	CASINO_ENV=test $(PY) -m clients.generate

stop: setup
	$(PY) -m casino.embedded stop

clean: stop
	rm -rf .data
