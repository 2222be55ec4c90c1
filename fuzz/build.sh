#!/usr/bin/env bash
# Builds libFuzzer targets: GeoCampaignCore's sources compiled once with -sanitize=fuzzer,address
# into a static library (rebuilt when a source is newer), then each fuzz/targets/NAME.swift
# linked against it into .build/fuzz/NAME.
# Usage: fuzz/build.sh NAME...
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC=${SWIFTC:-swiftc}
OUT=.build/fuzz
CORE=$OUT/core
mkdir -p "$CORE"
SAN=(-sanitize=fuzzer,address)
# The C modules as SwiftPM sees them: the module maps, plus libxml2's include folder.
INC=(-I Sources/CYaml -I Sources/CLibXML2 -I Sources/CSQLite)
for flag in $(pkg-config --cflags-only-I libxml-2.0 yaml-0.1 sqlite3); do INC+=(-Xcc "$flag"); done
LIBS=(-lyaml -lxml2 -lsqlite3)

mapfile -t sources < <(find Sources/GeoCampaignCore -name '*.swift' | LC_ALL=C sort)
lib=$CORE/libGeoCampaignCore.a
stale=0
if [ ! -f "$lib" ]; then stale=1; else
  for s in "${sources[@]}" Sources/CLibXML2/shim.h Sources/CYaml/shim.h Sources/CSQLite/shim.h fuzz/build.sh; do
    if [ "$s" -nt "$lib" ]; then stale=1; break; fi
  done
fi
if [ "$stale" = 1 ]; then
  echo "fuzz: compiling GeoCampaignCore with ${SAN[*]} (${#sources[@]} files)"
  "$SWIFTC" -O -wmo -num-threads 2 "${SAN[@]}" -parse-as-library -enable-testing \
    -module-name GeoCampaignCore -emit-library -static -o "$lib" \
    -emit-module -emit-module-path "$CORE/GeoCampaignCore.swiftmodule" \
    "${INC[@]}" "${sources[@]}" 2> "$CORE/build.log" || { cat "$CORE/build.log" >&2; exit 1; }
fi
for name in "$@"; do
  src=fuzz/targets/$name.swift
  [ -f "$src" ] || { echo "fuzz: no target $src" >&2; exit 1; }
  bin=$OUT/$name
  if [ ! -f "$bin" ] || [ "$src" -nt "$bin" ] || [ fuzz/FuzzInput.swift -nt "$bin" ] || [ "$lib" -nt "$bin" ]; then
    echo "fuzz: linking $name"
    "$SWIFTC" -O "${SAN[@]}" -parse-as-library -module-name "Fuzz_${name//-/_}" \
      -I "$CORE" "${INC[@]}" "$src" fuzz/FuzzInput.swift -L "$CORE" -lGeoCampaignCore "${LIBS[@]}" -o "$bin" \
      2> "$OUT/$name.build.log" || { cat "$OUT/$name.build.log" >&2; exit 1; }
  fi
done
