# damas-swiss: the two commands a newcomer needs are `make run` and `make test`.
# PYTHON: the interpreter the virtualenv is made from (Python 3.11, the version CI runs), e.g. `make run PYTHON=python3.11`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
# PORT: the port `make run` serves on (make run PORT=8001 when 8000 is taken)
PORT ?= 8000
# LAN=1: serve the venue's Wi-Fi too (players' phones), on every address of this machine.
LAN ?= 0
ifeq ($(LAN),1)
HOST ?= 0.0.0.0
else
HOST ?= 127.0.0.1
endif

.PHONY: run test test-fast test-slow test-all coverage backup venv bench messages clean lint format

$(VENV)/.runtime: requirements.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null || { \
	  echo "erro: '$(PYTHON)' não foi encontrado ou não é um Python 3.11 ou mais novo. Escolha outro: make $(MAKECMDGOALS) PYTHON=python3.11"; \
	  exit 1; }
	@[ -e $(VENV) ] || fresh=1; $(PYTHON) -m venv $(VENV) || { [ -z "$$fresh" ] || rm -rf $(VENV); \
	  echo "erro: '$(PYTHON) -m venv' falhou. No Debian/Ubuntu o módulo venv é um pacote à parte:"; \
	  echo "      sudo apt-get install python3-venv   (ou python3.11-venv), e rode make de novo."; \
	  [ -n "$$fresh" ] || echo "      (a pasta $(VENV) já existia: se ficou pela metade, apague-a com rm -rf $(VENV))"; \
	  exit 1; }
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	$(VENV)/bin/pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(VENV)/.dev

# DEMO: the demo tournament. Unset: loaded at the first run only, into an empty database (a deleted demo stays
# deleted); DEMO=1: loaded now if missing; DEMO=0: never.
DEMO ?=

## make run: set up, migrate SQLite, load the demo (first run only), create the director login (first run: its
## password, shown once) and serve on http://127.0.0.1:8000/
## (DEBUG off: visitors get the Portuguese error pages, errors print on this console; `make run DEBUG=1` for Django's)
## make run LAN=1: the same, served on the venue's network too; prints the address and a QR code for the phones
run: $(VENV)/.runtime
	@# migrate, the demo (first run only, or DEMO=1/0), the director's login (made once): one start of Django
	$(PY) manage.py venue_setup --demo $(or $(DEMO),auto) --url http://127.0.0.1:$(PORT)/
	@if [ "$(LAN)" = "1" ]; then $(PY) manage.py lan_address --port $(PORT); fi
	@# the background worker (django-tasks, queue in the database: sending to the federation, ...) runs beside the
	@# server and stops with it; what it had not done yet stays in the queue for the next start. It waits out a
	@# database outage, and --supervise starts it again if it ends for any other reason (issue 34.6)
	$(PY) manage.py federation_resume
	$(PY) manage.py run_worker --supervise --interval 2 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null; wait $$worker 2>/dev/null' EXIT INT TERM; \
	LAN=$(LAN) DEBUG=$${DEBUG:-0} $(PY) manage.py serve $(HOST):$(PORT)

# pytest exits with 5 when the markers select no test (e.g. `make test-slow PYTEST_ARGS=-k nothing`): said, not failed.
PYTEST = $(PY) -m pytest $(1) $(PYTEST_ARGS) || { rc=$$?; [ $$rc -eq 5 ] && echo "(nenhum teste selecionado)" || exit $$rc; }

## make test: every test but the `slow` sweep (browser tests run when /usr/bin/chromium exists), in TEST_WORKERS
## processes side by side (pytest-xdist; default 2, one per core of a 2-core machine; TEST_WORKERS=0: one process)
TEST_WORKERS ?= 2
test: $(VENV)/.dev
	$(call PYTEST,-m "not slow" -n $(TEST_WORKERS))

## make test-fast: no browser and no slow test, stopping at the first failure
test-fast: $(VENV)/.dev
	$(call PYTEST,-x -q -m "not browser and not slow")

## make test-slow: only the `slow` sweep (every pairing vector imported, exported and paired through the app), in
## SLOW_WORKERS processes side by side (pytest-xdist; default 2, one per core of the 2-core machines it runs on)
SLOW_WORKERS ?= 2
test-slow: $(VENV)/.dev
	$(call PYTEST,-m slow -n $(SLOW_WORKERS))

## make test-all: everything, make test and make test-slow in one run
test-all: $(VENV)/.dev
	$(call PYTEST,)

## make coverage: make test (same TEST_WORKERS) with coverage measured; fails under the floor of pyproject.toml ([tool.coverage.report])
## or when a file drops below its floor in guards/coverage.txt, or a file not listed there is not fully covered
## (guards/coverage_floors.py; `guards/coverage_floors.py --update` after it raises the floors and shrinks the list)
coverage: $(VENV)/.dev
	$(call PYTEST,-m "not slow" -n $(TEST_WORKERS) --cov --cov-report=term:skip-covered)
	$(PY) guards/coverage_floors.py

## make backup: a consistent copy of the SQLite database into backups/ (safe while the server runs)
backup: $(VENV)/.runtime
	$(PY) manage.py sqlite_backup

bench: $(VENV)/.dev
	for f in bench/*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

messages: $(VENV)/.dev
	$(PY) manage.py makemessages -l pt_BR -l en --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache .coverage

## make lint: ruff (lint and format check), the ratchets (guards/ratchet.py: complexity and annotations, lists that
## only shrink), then mypy (types; its levels per module are in pyproject.toml)
lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) guards/ratchet.py
	$(VENV)/bin/mypy

## make format: apply ruff's fixes and formatting
format: $(VENV)/.dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
