#!/usr/bin/env bash
# Makes sure the Spark job can run: Java (default-jre-headless from Debian, installed when run as
# root and no java is found) and a virtual environment with spark/requirements.txt, kept OUTSIDE
# the clone so that later runs (and later CI runs on the same machine) reuse it:
#   ${GEOCAMPAIGN_SPARK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/geocampaign/venv-spark}
# The environment is (re)installed only when requirements.txt changed since it was made.
# Prints the environment's path (and nothing else) on stdout; progress goes to stderr.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
venv="${GEOCAMPAIGN_SPARK_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/geocampaign/venv-spark}"
python="${PYTHON:-python3}"

if ! command -v java >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "venv.sh: installing default-jre-headless (Spark needs Java 17 or later)" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >&2
  else
    echo "venv.sh: java is missing: install Java 17 or later first (Debian/Ubuntu: sudo apt-get install default-jre-headless)" >&2
    exit 1
  fi
fi

stamp="$venv/.geocampaign-requirements"
if [ -x "$venv/bin/python" ] && [ -f "$stamp" ] && cmp -s "$stamp" "$here/requirements.txt"; then
  echo "$venv"
  exit 0
fi

if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "venv.sh: installing python3-venv" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
  else
    echo "venv.sh: Python's venv module is missing (Debian/Ubuntu: sudo apt-get install python3-venv)" >&2
    exit 1
  fi
fi

echo "venv.sh: installing spark/requirements.txt into $venv (pyspark is a ~456 MB download the first time)" >&2
# The stamp, written last, marks a complete install; an interrupted one is simply run again.
rm -f "$stamp"
mkdir -p "$(dirname "$venv")"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q -r "$here/requirements.txt" >&2
cp "$here/requirements.txt" "$stamp"
echo "$venv"
