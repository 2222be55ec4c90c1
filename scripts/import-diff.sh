#!/bin/bash
# Compares how two geocampaign builds read GeoJSON imports: for each file given, a campaign
# importing it (once as is, once with a radius for Point features) is exported with `regions`
# and checked with `validate` by both builds; their stdout, stderr and exit statuses must be
# byte-identical. For changes to the import reader (docs/testing.md, "Comparing two builds'
# import reading").
#
#   scripts/import-diff.sh OLD_BIN NEW_BIN FILE...
#   scripts/import-diff.sh OLD_BIN NEW_BIN --mutants N FILE...   # also N mutants of the files
#
# Exits 1 when any file's results differ (each is named, with the first lines of the stderr diff).
set -uo pipefail
[ $# -ge 3 ] || { sed -n 2,11p "$0"; exit 64; }
A=$1; B=$2; shift 2
W=$(mktemp -d); trap 'rm -rf "$W"' EXIT
mutants=0
if [ "$1" = "--mutants" ]; then mutants=$2; shift 2; fi
files=("$@")
if [ "$mutants" -gt 0 ]; then
  mkdir -p "$W/mutants"
  # Bytes cut, tokens inserted, the file truncated, bytes copied from elsewhere: every kind of
  # parse and geometry error, seeded so a difference can be reproduced.
  python3 - "$W/mutants" "$mutants" "$@" <<'PY'
import random, sys
out, n, srcs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
random.seed(7)
toks = [b'"', b'\\', b'{', b'}', b'[', b']', b',', b':', b'1e999', b'-', b'null', b'"type"', b'\x00', b'\xc3',
        b'\xff', b' ', b'\n', b'0.5', b'"Polygon"', b'"MultiPolygon"', b'"Point"', b'"coordinates"']
for i in range(n):
    b = bytearray(open(random.choice(srcs), 'rb').read())
    for _ in range(random.randint(1, 3)):
        k = random.random(); p = random.randrange(len(b)) if b else 0
        if k < 0.3: b[p:p + random.randint(1, 8)] = b''
        elif k < 0.7: b[p:p] = random.choice(toks)
        elif k < 0.85: b = b[:p]
        elif b:
            q = random.randrange(len(b)); b[p:p + 3] = b[q:q + 3]
    open('%s/m%04d.geojson' % (out, i), 'wb').write(bytes(b))
PY
  files+=("$W"/mutants/*.geojson)
fi
n=0; d=0; bytes=0; ok=0
for f in "${files[@]}"; do
  n=$((n + 1))
  for extra in "" "    radius: 100m"; do
    rm -rf "$W/c"; mkdir -p "$W/c"
    cat > "$W/c/t.yaml" <<Y
campaign: t
regions:
  - import: $(realpath "$f")
    tags: [x]
$extra
rules:
  - id: r
    when: { inside: { tags: [x] } }
    offer: o
offers:
  - id: o
    priority: 1
    message: hi
Y
    for side in A B; do
      bin=$A; [ $side = B ] && bin=$B
      timeout 60 "$bin" regions --campaigns "$W/c" > "$W/$side.out" 2> "$W/$side.err"; echo "rc $?" >> "$W/$side.err"
      timeout 60 "$bin" validate --campaigns "$W/c" >> "$W/$side.out" 2>> "$W/$side.err"; echo "rc $?" >> "$W/$side.err"
    done
    bytes=$((bytes + $(wc -c < "$W/A.out")))
    grep -q "^rc 0" "$W/A.err" && ok=$((ok + 1))
    if ! cmp -s "$W/A.out" "$W/B.out" || ! cmp -s "$W/A.err" "$W/B.err"; then
      d=$((d + 1)); echo "DIFF: $f${extra:+ (with a radius)}"; diff "$W/A.err" "$W/B.err" | head -5
    fi
  done
done
echo "$n files, $d differ; $bytes bytes of output compared, $ok exports exited 0"
[ $d -eq 0 ]
