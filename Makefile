# Two commands a fresh machine needs: `make chat` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PYTHON ?= python3
export BAML_LOG ?= warn

.PHONY: setup chat test generate check-generated lint format bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

chat: setup
	$(BIN)/math-agent chat

test: setup
	$(BIN)/pytest

generate: setup
	$(BIN)/baml-cli generate --from baml_src

# Fails when baml_client/ differs from what baml_src/ generates (run by CI).
check-generated: setup
	@tmp=$$(mktemp -d) && cp -r baml_src "$$tmp/" && \
	  (cd "$$tmp" && $(CURDIR)/$(BIN)/baml-cli generate --from baml_src >/dev/null) && \
	  if diff -r -x __pycache__ "$$tmp/baml_client" baml_client; then echo "baml_client/ is up to date"; rm -rf "$$tmp"; \
	  else echo "baml_client/ is stale: run 'make generate' and commit the result"; rm -rf "$$tmp"; exit 1; fi

lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/math-agent bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
