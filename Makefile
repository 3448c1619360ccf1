# damas-swiss: the two commands a newcomer needs are `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# LAN=1: serve the venue's Wi-Fi too (players' phones), on every address of this machine.
LAN ?= 0
ifeq ($(LAN),1)
HOST ?= 0.0.0.0
else
HOST ?= 127.0.0.1
endif

.PHONY: run test test-fast venv migrate demo bench messages clean lint format

$(VENV)/.runtime: requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/pip install --quiet --upgrade pip
	$(VENV)/bin/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt
	$(VENV)/bin/pip install --quiet -r requirements-dev.txt
	touch $@

venv: $(VENV)/.dev

## make run: set up, migrate SQLite, load the demo, create the director login and serve on http://127.0.0.1:8000/
## (DEBUG off: visitors get the Portuguese error pages, errors print on this console; `make run DEBUG=1` for Django's)
## make run LAN=1: the same, served on the venue's network too; prints the address and a QR code for the phones
run: $(VENV)/.runtime
	$(PY) manage.py migrate --noinput
	$(PY) manage.py demo
	$(PY) manage.py demo_login --url http://127.0.0.1:$(PORT)/
	@if [ "$(LAN)" = "1" ]; then $(PY) manage.py lan_address --port $(PORT); fi
	@echo "Servindo em http://$(HOST):$(PORT)/  (Ctrl+C para parar)"
	LAN=$(LAN) DEBUG=$${DEBUG:-0} $(PY) manage.py runserver $(HOST):$(PORT)

## make test: the whole suite (browser tests run when /usr/bin/chromium exists)
test: $(VENV)/.dev
	$(PY) -m pytest $(PYTEST_ARGS)

test-fast: $(VENV)/.dev
	$(PY) -m pytest -x -q -m "not browser and not slow" $(PYTEST_ARGS)

bench: $(VENV)/.dev
	for f in bench/*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

messages: $(VENV)/.dev
	$(PY) manage.py makemessages -l pt_BR -l en --ignore=.venv --ignore=staticfiles --ignore=tests --ignore=bench
	$(PY) manage.py compilemessages --ignore=.venv

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .mypy_cache

## make lint: ruff (lint and format check), then mypy (types; its levels per module are in pyproject.toml)
lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

## make format: apply ruff's fixes and formatting
format: $(VENV)/.dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .
