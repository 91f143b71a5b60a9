# ACL host-memory conformance kit. `make help` lists the targets.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
ACL_LIB ?= build/sim/libascendcl.so
JOBS ?= auto

.DEFAULT_GOAL := help
.PHONY: help setup node generate check-generated lint sim sim-asan test conformance selftest certify gate merge bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-16s %s\n", $$1, $$2}'

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(STAMP) ## create .venv and install the project with its dependencies

generate: $(STAMP) ## regenerate generated/ from spec/ and the templates
	$(PY) -m codegen generate

check-generated: $(STAMP) ## fail when generated/ is stale
	$(PY) -m codegen check

lint: $(STAMP) ## validate the spec and run ruff
	$(PY) -m codegen lint
	$(VENV)/bin/ruff check .

sim: ## build the reference simulator into build/sim/libascendcl.so
	$(MAKE) -C sim

sim-asan: ## build the simulator with ASan/UBSan into build/sim-asan/
	$(MAKE) -C sim asan

NODE_STAMP := node_modules/.package-lock.json
$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

node: $(NODE_STAMP) ## install the pinned Allure 3 renderer (npm ci)

test: $(STAMP) $(NODE_STAMP) check-generated lint sim sim-asan ## run every test (unit, simulator, harness, certification, self-test)
	$(PY) -m pytest -n 2 tests
	ACLSIM_LIB=build/sim-asan/libascendcl.so $(PY) -m pytest -n 2 -q tests/sim
	$(PY) -m conformance selftest

conformance: $(STAMP) $(NODE_STAMP) sim generate ## run the suite (ACL_LIB=... for a real library) and render the report
	$(PY) -m conformance run --acl-lib $(ACL_LIB) -n $(JOBS)

selftest: $(STAMP) sim ## prove the suite: no false alarm on the faithful simulator, every fault caught
	$(PY) -m conformance selftest

FAIL_ON ?= regression
EXPECTATIONS ?=
certify: $(STAMP) $(NODE_STAMP) sim generate ## certify ACL_LIB with the full suite into reports/certification/; exit 1 when NOT CERTIFIED
	$(PY) -m conformance certify --acl-lib $(ACL_LIB) -n $(JOBS) $(foreach f,$(EXPECTATIONS),--expectations $(f)) $(if $(BASELINE),--baseline $(BASELINE))

gate: $(STAMP) ## compare BASELINE and CANDIDATE runs (bundles or summary.json); exit 1 on a regression
	@test -n "$(BASELINE)" -a -n "$(CANDIDATE)" || { echo "usage: make gate BASELINE=... CANDIDATE=... [FAIL_ON=...]"; exit 2; }
	$(PY) -m conformance compare $(BASELINE) $(CANDIDATE) --fail-on $(FAIL_ON) $(foreach f,$(EXPECTATIONS),--expectations $(f))

RUNS ?=
OUT ?= reports/fleet
merge: $(STAMP) ## merge RUNS (bundles, report dirs or folders of them) into one compatibility matrix in OUT
	@test -n "$(RUNS)" || { echo "usage: make merge RUNS='dir1 dir2 ...|folder' [OUT=reports/fleet] [RULES=globs]"; exit 2; }
	$(PY) -m conformance merge $(RUNS) --out $(OUT) $(if $(RULES),--rules '$(RULES)')

clean: ## remove build outputs and reports
	rm -rf build reports/allure-results reports/allure-report reports/*.json reports/*.xml

bench: $(STAMP) sim ## measure generation, the suite's serial vs parallel wall time, and merging 500 runs
	$(PY) bench/bench.py
