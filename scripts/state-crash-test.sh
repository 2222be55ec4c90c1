#!/usr/bin/env bash
# Kills stateful runs with SIGKILL at 20 random moments (state.md 1.4) and checks that each
# rerun gives the output and state of an uninterrupted run: the suite's StateCrashTests with
# more kills. Usage: scripts/state-crash-test.sh [KILLS]
set -euo pipefail
cd "$(dirname "$0")/.."
GEOCAMPAIGN_CRASH_KILLS="${1:-20}" swift test --filter StateCrashTests
