# geocampaign: build, run the example, test, benchmark.
# Targets that build first make sure libyaml and libxml2 are there: installed with apt-get when run as root,
# else the missing package is named.

SWIFT ?= swift
BIN_RELEASE := .build/release/geocampaign
SIZE ?= S M L

.PHONY: all deps browser-deps build release example report test bench conformance difftest fuzz clean dist test-spark bench-spark bench-stream stream-crash-test

all: build

deps:
	@if ! pkg-config --exists yaml-0.1 2>/dev/null || [ ! -f /usr/include/yaml.h ] \
	    || ! pkg-config --exists libxml-2.0 2>/dev/null || [ ! -f /usr/include/libxml2/libxml/xmlreader.h ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing libyaml-dev, libxml2-dev and pkg-config"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libyaml-dev libxml2-dev pkg-config; \
	  else \
	    echo "libyaml or libxml2 is missing: install them first (Debian/Ubuntu: sudo apt-get install libyaml-dev libxml2-dev pkg-config; macOS: brew install libyaml libxml2)"; \
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

# The browser test of the HTML report (Tests/geocampaignTests/ReportBrowserTests) opens it in
# headless Chromium, driven by a python3 script: installed with apt-get when run as root, else
# the test is skipped and says why.
browser-deps:
	@if ! command -v chromium >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing chromium and python3 for the browser test"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium python3; \
	  else \
	    echo "chromium is missing: the browser test of the report will be skipped (Debian/Ubuntu: sudo apt-get install chromium)"; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

# Release builds link the Swift runtime and Foundation statically (as `make dist` does): an empty
# run costs about half the CPU and page faults of the dynamically linked binary, which first
# resolves some twenty shared libraries (docs/performance-log.md, "Region loading, fourth pass").
# Every release build here passes the same flag, so they share one build.
RELEASE_FLAGS ?= --static-swift-stdlib

release: deps
	$(SWIFT) build -c release $(RELEASE_FLAGS)

# The main job on the bundled example: replay examples/visits.jsonl through campaigns/.
example: release
	$(BIN_RELEASE) validate campaigns
	$(BIN_RELEASE) evaluate --campaigns campaigns --history examples/visits.jsonl

# The report of the bundled example, as a page to open in a browser.
report: release
	$(BIN_RELEASE) report --campaigns campaigns --history examples/visits.jsonl --output report.html

test: deps browser-deps
	$(SWIFT) build
	$(SWIFT) test
	.build/debug/geocampaign test campaigns/tests

conformance: release
	../shared/tools/conformance-check --bin $(BIN_RELEASE)

# The differential test against the plain Python reading of the spec (docs/testing.md): 25
# seeded cases one-shot, 25 through a state in 2-6 batches and 25 through the stream. PyYAML comes from python3 or, when
# it lacks it, from a venv in .build/ (scripts/python-with-yaml.sh).
DIFFTEST_SEEDS ?= 0:25

difftest: build
	@py="$$(bash scripts/python-with-yaml.sh)" && \
	  "$$py" scripts/difftest.py --seeds $(DIFFTEST_SEEDS) && \
	  "$$py" scripts/difftest.py --seeds $(DIFFTEST_SEEDS) --state && \
	  "$$py" scripts/difftest.py --seeds $(DIFFTEST_SEEDS) --stream && \
	  "$$py" scripts/difftest.py --seeds $(DIFFTEST_SEEDS) --change && \
	  "$$py" scripts/difftest.py --seeds $(DIFFTEST_SEEDS) --sorted && \
	  "$$py" scripts/difftest.py --seeds $(DIFFTEST_SEEDS) --csv && \
	  "$$py" scripts/difftest.py --seeds $(DIFFTEST_SEEDS) --report

bench: release
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product geocampaign-bench
	python3 scripts/bench.py --sizes "$(SIZE)"
	python3 scripts/bench_report.py

# The live stream (docs/stream.md): throughput from a pipe on the M history, latency at a paced
# 20k fixes/s with --commit-every 1s, peak memory with 1M users x 5 fixes (scripts/bench_stream.py).
bench-stream: release
	@[ -f bench-data/M/history.jsonl ] || python3 scripts/gen_bench.py --size M --out bench-data
	python3 scripts/bench_stream.py throughput latency memory

# The stream's crash test: 10 kill -9s over the M history, restarted, against an uninterrupted run.
stream-crash-test: release
	@[ -f bench-data/M/history.jsonl ] || python3 scripts/gen_bench.py --size M --out bench-data
	bash scripts/stream-crash-test.sh $(BIN_RELEASE) bench-data/M 10

# A binary that travels (docs/scaling.md): release build with the Swift runtime linked
# statically, packed with campaigns/ into dist/geocampaign-linux-ARCH.tar.gz; prints and checks
# (ldd) the system libraries it still needs.
dist: deps
	bash spark/dist.sh

# The Spark job (spark/): Java from Debian when root and missing, pyspark and pyarrow from PyPI
# in a virtual environment outside the clone (reused: $${XDG_CACHE_HOME:-~/.cache}/geocampaign/
# venv-spark), then the job in local[2] against single-process runs.
test-spark: dist
	@venv="$$(bash spark/venv.sh)" && \
	  PYSPARK_PYTHON="$$venv/bin/python" "$$venv/bin/python" -m pytest -q -p no:cacheprovider spark/test_geocampaign_spark.py

# The job on the bench M city with 2, 4 and 8 partitions against one process (docs/scaling.md).
bench-spark: dist
	@venv="$$(bash spark/venv.sh)" && \
	  PYSPARK_PYTHON="$$venv/bin/python" "$$venv/bin/python" spark/bench_spark.py

# libFuzzer targets, built with -sanitize=fuzzer,address (docs/testing.md). A new target is its
# file fuzz/targets/NAME.swift plus one line here: FUZZ_TARGETS += NAME
FUZZ_SECONDS ?= 30
FUZZ_TARGETS := jsonl-line yaml-campaign geojson gpx csv-row

fuzz: deps
	FUZZ_SECONDS=$(FUZZ_SECONDS) fuzz/run.sh $(FUZZ_TARGETS)

clean:
	rm -rf .build
