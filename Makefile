# Two commands for a fresh clone with only Python 3.11+: `make run` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000
# Two stamps: running the app needs only the runtime dependencies (`-e .`); the test and
# development tools (pytest, Playwright, schemathesis, hypothesis, ruff…) come with `.[dev]`.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev

.PHONY: run test lint format venv venv-dev messages bench bench-compare bench-full chaos clean

$(RUN_STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -c constraints.txt -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): $(RUN_STAMP) package.json package-lock.json
	$(BIN)/pip install --quiet -c constraints.txt -e '.[dev]'
	# ESLint for static/js (tests/js/test_lint.py), pinned by package-lock.json; needs npm.
	if command -v npm >/dev/null; then npm ci --no-audit --no-fund --silent; \
	else echo "npm not found: ESLint is not installed, tests/js/test_lint.py is skipped"; fi
	touch $(DEV_STAMP)

## What `make run` needs.
venv: $(RUN_STAMP)

## What `make test` needs (CI installs this before running ruff).
venv-dev: $(DEV_STAMP)

## Serve the app on embedded defaults: SQLite, in-memory channel layer, in-process worker.
run: $(RUN_STAMP)
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py migrate --noinput
	DEBUG=$${DEBUG:-1} $(BIN)/python manage.py seed_demo
	@echo "Open http://$(HOST):$(PORT)/"
	DEBUG=$${DEBUG:-1} $(BIN)/daphne -b $(HOST) -p $(PORT) vtt.asgi:application

## The whole suite; on PostgreSQL + Redis when DATABASE_URL and REDIS_URL are set.
test: $(DEV_STAMP)
	$(BIN)/pytest $(PYTEST_ARGS)

lint: $(DEV_STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	npx eslint static/js

format: $(DEV_STAMP)
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## Regenerate the Russian/English catalogues after changing UI strings.
messages: $(RUN_STAMP)
	$(BIN)/python manage.py makemessages -l en -l ru --ignore '.venv/*' --ignore 'static/vendor/*'
	$(BIN)/python manage.py compilemessages --ignore '.venv'

## Load test on loopback: daphne + channels-redis + PostgreSQL, then the bare-broadcast floor
## (docs/performance.md). Quick CI smoke: make bench BENCH_ARGS=--quick
TABLES ?= 100
CLIENTS ?= 6
DURATION ?= 30
RATE ?= 1
BENCH_ARGS ?=
bench: $(DEV_STAMP)
	$(BIN)/python -m bench --tables $(TABLES) --clients $(CLIENTS) --duration $(DURATION) \
		--rate $(RATE) $(BENCH_ARGS)

## The same load against the commit before issue 19 (BASE) and this tree, alternating ROUNDS
## times: docs/performance.md, "Side by side".
BASE ?= 0ff6ee7
ROUNDS ?= 2
bench-compare: $(DEV_STAMP)
	$(BIN)/python -m bench compare --base $(BASE) --rounds $(ROUNDS) $(BENCH_ARGS)

## Faults, long version: kill -9 web processes and a Celery worker, restart Redis, stop
## PostgreSQL, on private servers started for the run; prints the figures quoted in
## docs/operations.md. The short version runs inside `make test`.
chaos: $(DEV_STAMP)
	VTT_CHAOS_FULL=1 $(BIN)/pytest tests/chaos -p no:cacheprovider $(PYTEST_ARGS)

## The full mixed load (issue 9): 200 tables × 6 clients for 5 minutes, rolls, sheet moves and
## token moves on 100×100 maps with 500 tokens, every table's dungeon clock running. Each table
## sends a request every 4 s (FULL_RATE): 50 a second in all; turns last 60 s (CLOCK_SECONDS).
FULL_RATE ?= 0.25
CLOCK_SECONDS ?= 60
bench-full: $(DEV_STAMP)
	$(BIN)/python -m bench --tables 200 --clients 6 --duration 300 --rate $(FULL_RATE) \
		--mix roll=1,move=1,token=1 --clocks --clock-seconds $(CLOCK_SECONDS) --map-size 100 \
		--map-tokens 500 $(BENCH_ARGS)

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
