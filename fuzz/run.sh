#!/usr/bin/env bash
# Builds and runs libFuzzer targets, FUZZ_SECONDS each (default 30), one after the other.
# Each target's corpus lives in .build/fuzz/corpus/NAME (kept between runs), seeded from the
# header of fuzz/targets/NAME.swift: the files named on its `// seeds:` line (each cut to the
# input size limit) or, for a target that takes one line or row, each line of the files on its
# `// seeds-by-line:` line (at most 2,000 a file); `// max_len: N` sets its input size limit
# (default 16384, FUZZ_MAX_LEN overrides). Inputs that once failed, in fuzz/regressions/NAME/,
# are added too. Findings go to .build/fuzz/artifacts/NAME/; the log is .build/fuzz/NAME.log.
# Usage: FUZZ_SECONDS=600 fuzz/run.sh NAME...   Exit status: 0 when every target ran clean.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
fuzz/build.sh "$@" || exit 1
# The Swift runtime's backtracer waits forever inside libFuzzer's crash handler: leave crash
# reports to libFuzzer and AddressSanitizer.
export SWIFT_BACKTRACE=enable=no
# Swift's runtime keeps metadata caches for the life of the process: not leaks of ours.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
failed=()
for name in "$@"; do
  corpus=.build/fuzz/corpus/$name
  artifacts=.build/fuzz/artifacts/$name
  log=.build/fuzz/$name.log
  target=fuzz/targets/$name.swift
  max_len=${FUZZ_MAX_LEN:-$(sed -n 's|^// max_len: *||p' "$target" | head -1)}
  max_len=${max_len:-16384}
  mkdir -p "$corpus" "$artifacts"
  for pattern in $(sed -n 's|^// seeds: ||p' "$target"); do
    for f in $pattern; do
      [ -f "$f" ] || continue
      head -c "$max_len" "$f" > "$corpus/seed-$(cksum < "$f" | cut -d' ' -f1)"
    done
  done
  for pattern in $(sed -n 's|^// seeds-by-line: ||p' "$target"); do
    for f in $pattern; do
      [ -f "$f" ] || continue
      key=$(cksum < "$f" | cut -d' ' -f1)
      head -n 2000 "$f" | awk -v dir="$corpus" -v key="$key" -v max="$max_len" \
        '{ out = dir "/seed-" key "-" NR; printf "%s", substr($0, 1, max) > out; close(out) }'
    done
  done
  if [ -d "fuzz/regressions/$name" ]; then cp fuzz/regressions/"$name"/* "$corpus"/ 2>/dev/null; fi
  echo "fuzz: $name for ${seconds}s ($(ls "$corpus" | wc -l) inputs in the corpus)"
  FUZZ_TMP=$(mktemp -d "${TMPDIR:-/tmp}/geocampaign-fuzz-$name.XXXXXX")
  export FUZZ_TMP
  timeout $((seconds + 300)) ".build/fuzz/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1
  rc=$?
  rm -rf "$FUZZ_TMP"
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  echo "fuzz: $name: ${runs:-?} executions, exit status $rc"
  if [ "$rc" != 0 ]; then
    failed+=("$name")
    tail -n 60 "$log"
  fi
done
if [ ${#failed[@]} -gt 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (inputs in .build/fuzz/artifacts/)"
  exit 1
fi
echo "fuzz: all ${#} targets ran clean"
