#!/usr/bin/env bash
# Prints the path of a Python 3 that can `import yaml` (the differential test's reference reads
# campaigns with PyYAML): python3 itself when it has PyYAML, else a virtual environment in the
# git-ignored .build/venv-difftest with PyYAML from PyPI (made once; python3-venv from Debian is
# installed first when run as root and missing). Progress goes to stderr.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
python="${PYTHON:-python3}"
if "$python" -c 'import yaml' 2>/dev/null; then
  command -v "$python"
  exit 0
fi
venv="$root/.build/venv-difftest"
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c 'import yaml' 2>/dev/null; then
  echo "$venv/bin/python"
  exit 0
fi
if ! "$python" -c 'import venv, ensurepip' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "python-with-yaml.sh: installing python3-venv" >&2
    apt-get update -qq >&2
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >&2
  else
    echo "python-with-yaml.sh: PyYAML and Python's venv module are missing (Debian/Ubuntu: sudo apt-get install python3-yaml)" >&2
    exit 1
  fi
fi
echo "python-with-yaml.sh: installing PyYAML into $venv" >&2
rm -rf "$venv"
"$python" -m venv "$venv"
"$venv/bin/python" -m pip install -q pyyaml >&2
echo "$venv/bin/python"
