#!/usr/bin/env bash
# The crash test of issue 11 (docs/stream.md, "What a crash costs"): a stream over the 1M-line M
# history (--history FILE --output FILE) is killed with SIGKILL at KILLS random moments and
# restarted each time with the same command; the final --output must equal an uninterrupted
# run's, line for line, with no line twice.
#
#   scripts/stream-crash-test.sh [BIN] [DATA] [KILLS]
#   (defaults: .build/release/geocampaign, bench-data/M, 10)
set -euo pipefail
BIN=$(realpath "${1:-.build/release/geocampaign}")
DATA=$(realpath "${2:-bench-data/M}")
KILLS=${3:-10}
[ -f "$DATA/history.jsonl" ] || { echo "$DATA/history.jsonl missing: python3 scripts/gen_bench.py --size M --out bench-data"; exit 1; }
work=$(mktemp -d /tmp/gc-stream-crash.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work"

start=$(date +%s.%N)
"$BIN" stream --state ref.db --campaigns "$DATA/campaigns" --history "$DATA/history.jsonl" --output ref.jsonl --quiet
seconds=$(echo "$(date +%s.%N) - $start" | bc)
echo "uninterrupted: $(wc -l < ref.jsonl) decisions in ${seconds}s"

cmd=("$BIN" stream --state s.db --campaigns "$DATA/campaigns" --history "$DATA/history.jsonl" --output out.jsonl
     --commit-every 1s --quiet)
hit=0
for k in $(seq 1 "$KILLS"); do
  "${cmd[@]}" &
  pid=$!
  # A random moment within what is left of the run: a restart reads on from the committed byte
  # (--state-info), so the time left shrinks with it.
  at=$("$BIN" stream --state s.db --state-info 2>/dev/null | sed -n 's/.*at byte \([0-9]*\).*/\1/p')
  wait_s=$(python3 -c "import random; left = 1 - ${at:-0} / $(stat -c %s "$DATA/history.jsonl"); print(random.uniform(0.05, 0.9) * max(0.2, left) * $seconds)")
  sleep "$wait_s"
  if kill -9 "$pid" 2>/dev/null; then hit=$((hit + 1)); state=killed; else state=finished; fi
  wait "$pid" 2>/dev/null || true
  echo "kill $k after ${wait_s}s: $state, out.jsonl $(wc -l < out.jsonl) lines"
done
"${cmd[@]}"
if ! cmp -s ref.jsonl out.jsonl; then
  echo "FAIL: out.jsonl differs from the uninterrupted run ($(wc -l < out.jsonl) against $(wc -l < ref.jsonl) lines)"
  diff <(sort ref.jsonl) <(sort out.jsonl) | head -5
  exit 1
fi
dups=$(sort out.jsonl | uniq -d | wc -l)
[ "$dups" = 0 ] || { echo "FAIL: $dups duplicate lines"; exit 1; }
echo "ok: $hit of $KILLS kills hit a running stream; out.jsonl equals the uninterrupted run ($(wc -l < out.jsonl) lines, no duplicate)"
