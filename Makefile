# Two commands do everything on a fresh machine with Python 3.11 and Node 20:
#   make run    install what is missing, build the web client, migrate, load demo data, serve
#   make test   install what is missing and run every suite
SHELL := /bin/bash
.DEFAULT_GOAL := help

PYTHON ?= $(shell command -v python3.11 || command -v python3)
UV_VERSION := 0.13.9
TOOLS := var/tools
UV := $(shell command -v uv 2>/dev/null || echo $(TOOLS)/bin/uv)
HOST ?= 127.0.0.1
PORT ?= 8000
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := .venv

.PHONY: help run test install python web browser mosquitto fonts wrk lint test-python test-web bench i18n-extract serve clean

help:
	@echo "make run    - install, build, migrate, load demo data and serve on http://$(HOST):$(PORT)/"
	@echo "make test   - install and run every suite (REQUIRE_SERVICES=1 fails instead of skipping)"
	@echo "make bench  - print session, history, revenue, ingest, fleet-size API and export figures (PostgreSQL and Mosquitto needed)"

$(TOOLS)/bin/uv:
	$(PYTHON) -m venv $(TOOLS)
	$(TOOLS)/bin/pip install --quiet --disable-pip-version-check uv==$(UV_VERSION)

.venv/.synced: pyproject.toml uv.lock | $(UV)
	$(UV) sync --locked --python $(PYTHON)
	@touch $@

python: .venv/.synced

node_modules/.installed: package.json package-lock.json
	npm ci --no-audit --no-fund
	@touch $@

# The web client is built when the project has one (package.json at the root).
web:
	@if [ -f package.json ]; then $(MAKE) --no-print-directory node_modules/.installed && npm run --silent build; \
	else echo "no web client in this checkout; serving the API only"; fi

install: python web

# `make run`'s MQTT broker: Debian's Mosquitto (with its dynamic-security plugin), which
# `coldchain serve` starts privately on 127.0.0.1:18883/18884; a Mosquitto the machine already
# runs on 1883 is left alone. Without it the console falls back to an in-process broker that
# checks no device credentials.
mosquitto:
	@if ! command -v mosquitto >/dev/null && [ ! -x /usr/sbin/mosquitto ]; then \
		echo "installing Debian's Mosquitto for make run's private MQTT broker"; \
		$(SUDO) apt-get install -y -q mosquitto || \
		{ $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q mosquitto; }; \
	fi

# PDF reports set Latin and Cyrillic in DejaVu Sans (Debian's fonts-dejavu-core), Chinese in
# reportlab's built-in STSong-Light; without DejaVu, STSong-Light writes everything (plainer).
fonts:
	@if [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then \
		echo "installing Debian's DejaVu fonts for the PDF reports"; \
		$(SUDO) apt-get install -y -q fonts-dejavu-core || \
		{ $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q fonts-dejavu-core; }; \
	fi

run: install mosquitto fonts
	.venv/bin/coldchain migrate
	.venv/bin/coldchain demo-seed
	.venv/bin/coldchain serve --host $(HOST) --port $(PORT) --simulate

serve: python
	.venv/bin/coldchain serve --host $(HOST) --port $(PORT)

# lint-imports holds the import contracts of pyproject.toml ([tool.importlinter]) on this
# checkout's src (PYTHONPATH), whatever the virtualenv's own path points at.
lint: python node_modules/.installed
	.venv/bin/ruff check src tools tests features bench migrations conftest.py
	PYTHONPATH=src .venv/bin/lint-imports
	.venv/bin/mypy
	npm run --silent lint

# Three pytest processes side by side: the suites wait on PostgreSQL, the brokers, the sandboxes and
# HTTP far more than on the CPU (each used about half a core beside the browser tests, 2026-11-28).
# The acceptance suites, the schema fuzzing and a few long API files in one; the access, account,
# alarm and attack files (test_a*), FDA's and the payment providers' in another (23 minutes without
# the last two, while the third took over 40 with them); the rest in the third. Each creates its own
# databases; brokers and sandboxes take free ports, job queues their own prefixes.
SECOND_PYTEST := features tests/integration/test_openapi_fuzz.py tests/integration/test_devices_fuzz.py \
	tests/integration/test_platform_api.py tests/integration/test_expiry_api.py \
	tests/integration/test_attack_startup.py tests/integration/test_attack_ingest.py \
	tests/integration/test_broker_access.py tests/integration/test_cli.py
THIRD_PYTEST := $(filter-out $(SECOND_PYTEST),$(wildcard tests/integration/test_a*.py tests/integration/test_fda_*.py \
	tests/integration/test_paypal_*.py tests/integration/test_stripe_*.py tests/integration/test_wechat_*.py \
	tests/integration/test_mosquitto_config.py))
test-python: python mosquitto fonts
	@mkdir -p var
	@.venv/bin/pytest $(SECOND_PYTEST) > var/test-features.log 2>&1 & second=$$!; \
	.venv/bin/pytest $(THIRD_PYTEST) > var/test-third.log 2>&1 & third=$$!; \
	.venv/bin/pytest tests $(addprefix --ignore=,$(filter tests/%,$(SECOND_PYTEST) $(THIRD_PYTEST))); tests=$$?; \
	wait $$second; features=$$?; wait $$third; access=$$?; \
	echo; echo "--- features, fuzzing and the long API files ---"; cat var/test-features.log; \
	echo; echo "--- access, accounts, alarms, attacks, FDA, payment providers ---"; cat var/test-third.log; \
	exit $$(( tests || features || access ))

# The browser tests drive Debian's Chromium (never a downloaded one); CJK fonts keep the
# screenshots of the Chinese pages legible.
browser:
	@if [ ! -x /usr/bin/chromium ] || ! fc-list 2>/dev/null | grep -qi "noto sans cjk"; then \
		echo "installing Debian's Chromium and CJK fonts for the browser tests"; \
		$(SUDO) apt-get install -y -q chromium fonts-noto-cjk || \
		{ $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q chromium fonts-noto-cjk; }; \
	fi

test-web: python browser
	@if [ -f package.json ]; then $(MAKE) --no-print-directory node_modules/.installed && npm run --silent test:all; fi

# CI runs the linters, the Python and the web suites side by side (mostly waiting on servers,
# brokers and the browser); the web log follows the Python one, the linters' comes last. The
# packages come first, one installer at a time.
test: python node_modules/.installed mosquitto fonts browser
	@mkdir -p var
	@$(MAKE) --no-print-directory lint > var/lint.log 2>&1 & lint=$$!; \
	$(MAKE) --no-print-directory test-web > var/test-web.log 2>&1 & web=$$!; \
	$(MAKE) --no-print-directory test-python; python=$$?; \
	wait $$web; webrc=$$?; echo; echo "--- web: typecheck, vitest and the Chromium e2e ---"; cat var/test-web.log; \
	wait $$lint; lintrc=$$?; echo; echo "--- linters ---"; cat var/lint.log; \
	exit $$(( python || webrc || lintrc ))

# wrk drives the API at fleet size (bench/api.py); Debian's, never a downloaded one.
wrk:
	@command -v wrk >/dev/null || { echo "installing Debian's wrk for bench/api.py"; \
		$(SUDO) apt-get install -y -q wrk || { $(SUDO) apt-get update -q && $(SUDO) apt-get install -y -q wrk; }; }

bench: python node_modules/.installed wrk
	.venv/bin/python bench/session_bench.py
	.venv/bin/python bench/history.py
	.venv/bin/python bench/revenue.py
	.venv/bin/python bench/ingest.py
	.venv/bin/python bench/web_load.py
	.venv/bin/python bench/floor.py
	.venv/bin/python bench/api.py
	.venv/bin/python bench/export.py

i18n-extract: python
	.venv/bin/pybabel extract -F babel.cfg -k N_ -k NC_:1c,2 --no-location --sort-output -o src/adapters/i18n/locales/messages.pot src
	.venv/bin/pybabel update -i src/adapters/i18n/locales/messages.pot -d src/adapters/i18n/locales --no-fuzzy-matching --width 120 --ignore-obsolete

clean:
	rm -rf .venv node_modules web/dist var/tools .pytest_cache
