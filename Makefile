# geocampaign: build, run the example, test, benchmark.
# Targets that build first make sure libyaml is there: installed with apt-get when run as root,
# else the missing package is named.

SWIFT ?= swift
BIN_RELEASE := .build/release/geocampaign
SIZE ?= S M L

.PHONY: all deps build release example test bench conformance clean

all: build

deps:
	@if ! pkg-config --exists yaml-0.1 2>/dev/null || [ ! -f /usr/include/yaml.h ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libyaml-dev and pkg-config"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libyaml-dev pkg-config; \
	  else \
	    echo "libyaml is missing: install it first (Debian/Ubuntu: sudo apt-get install libyaml-dev pkg-config; macOS: brew install libyaml)"; \
	    exit 1; \
	  fi; \
	fi
	@if ! pkg-config --exists sqlite3 2>/dev/null || [ ! -f /usr/include/sqlite3.h ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libsqlite3-dev"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libsqlite3-dev pkg-config; \
	  else \
	    echo "SQLite is missing: install it first (Debian/Ubuntu: sudo apt-get install libsqlite3-dev pkg-config; macOS: brew install sqlite)"; \
	    exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# The main job on the bundled example: replay examples/visits.jsonl through campaigns/.
example: release
	$(BIN_RELEASE) validate campaigns
	$(BIN_RELEASE) evaluate --campaigns campaigns --history examples/visits.jsonl

test: deps
	$(SWIFT) build
	$(SWIFT) test

conformance: release
	../shared/tools/conformance-check --bin $(BIN_RELEASE)

bench: release
	$(SWIFT) build -c release --product geocampaign-bench
	python3 scripts/bench.py --sizes "$(SIZE)"

clean:
	rm -rf .build
