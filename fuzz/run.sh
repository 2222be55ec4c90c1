#!/usr/bin/env bash
# Builds and runs libFuzzer targets, FUZZ_SECONDS each (default 30), one after the other.
# Each target's corpus lives in .build/fuzz/corpus/NAME (kept between runs), seeded from the
# files named on the `// seeds:` line of fuzz/targets/NAME.swift (each cut to FUZZ_MAX_LEN bytes)
# and from fuzz/regressions/NAME/ (inputs that once failed). Findings go to
# .build/fuzz/artifacts/NAME/; the log of a run is .build/fuzz/NAME.log.
# Usage: FUZZ_SECONDS=600 fuzz/run.sh NAME...   Exit status: 0 when every target ran clean.
set -uo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-30}
max_len=${FUZZ_MAX_LEN:-65536}
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
  mkdir -p "$corpus" "$artifacts"
  for pattern in $(sed -n 's|^// seeds: ||p' "fuzz/targets/$name.swift"); do
    for f in $pattern; do
      [ -f "$f" ] || continue
      head -c "$max_len" "$f" > "$corpus/seed-$(cksum < "$f" | cut -d' ' -f1)"
    done
  done
  if [ -d "fuzz/regressions/$name" ]; then cp fuzz/regressions/"$name"/* "$corpus"/ 2>/dev/null; fi
  echo "fuzz: $name for ${seconds}s ($(ls "$corpus" | wc -l) inputs in the corpus)"
  timeout $((seconds + 300)) ".build/fuzz/$name" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -max_len="$max_len" -print_final_stats=1 -artifact_prefix="$artifacts/" "$corpus" > "$log" 2>&1
  rc=$?
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
