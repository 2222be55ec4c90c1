#!/usr/bin/env bash
# `make dist`: a geocampaign that travels to machines without Swift (Spark executors):
#   dist/geocampaign-linux-ARCH.tar.gz
#     geocampaign/bin/geocampaign     release build, the Swift standard library, Dispatch and
#                                     Foundation linked statically (--static-swift-stdlib)
#     geocampaign/campaigns/          the example campaigns
#     geocampaign/LIBRARIES           what `ldd` says the binary still needs
# Then checks with ldd that it needs no Swift library and nothing beyond glibc, libstdc++,
# libgcc_s, libyaml (Debian: libyaml-0-2), libxml2 (the GPX reader; Debian: libxml2) and SQLite
# (the state of --state and stream; Debian: libsqlite3-0), and fails naming any other library. (libyaml cannot be linked statically from here: the
# system-library target links it by name, and the linker picks the shared one.)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
arch="$(uname -m)"
out="dist/geocampaign-linux-$arch.tar.gz"
scratch=.build/dist

"$SWIFT" build -c release --scratch-path "$scratch" --static-swift-stdlib --product geocampaign
bin="$scratch/release/geocampaign"

stage=.build/dist-stage
rm -rf "$stage"; mkdir -p "$stage/geocampaign/bin"
cp "$bin" "$stage/geocampaign/bin/geocampaign"
strip "$stage/geocampaign/bin/geocampaign" 2>/dev/null || true
cp -R campaigns "$stage/geocampaign/campaigns"

# The libraries it still needs, as the dynamic linker resolves them here.
ldd "$stage/geocampaign/bin/geocampaign" > "$stage/geocampaign/LIBRARIES"
echo "geocampaign (Swift runtime static) needs, per ldd:"
sed 's/^/  /' "$stage/geocampaign/LIBRARIES"
# Direct needs (NEEDED entries) that may be named; what they pull in themselves (libxml2's ICU,
# zlib, lzma) comes with their own packages on the target machine.
allowed='^(linux-vdso\.so|ld-linux[-a-z0-9_]*\.so|libc\.so|libm\.so|libpthread\.so|libdl\.so|librt\.so|libstdc\+\+\.so|libgcc_s\.so|libyaml-0\.so|libxml2\.so|libsqlite3\.so)'
needed="$(readelf -d "$stage/geocampaign/bin/geocampaign" 2>/dev/null | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')"
[ -n "$needed" ] || needed="$(awk '{print $1}' "$stage/geocampaign/LIBRARIES" | sed 's#.*/##')"
bad="$(echo "$needed" | grep -Ev "$allowed" || true)"
if [ -n "$bad" ]; then
  echo "dist: error: the binary needs libraries beyond glibc, libstdc++, libgcc_s, libyaml, libxml2 and libsqlite3: $(echo $bad)" >&2
  exit 1
fi
if grep -q "not found" "$stage/geocampaign/LIBRARIES"; then
  echo "dist: error: a library the binary needs is not found" >&2
  exit 1
fi
"$stage/geocampaign/bin/geocampaign" validate "$stage/geocampaign/campaigns" >/dev/null

mkdir -p dist
tar czf "$out.tmp" -C "$stage" geocampaign
mv "$out.tmp" "$out"
echo "wrote $out ($(du -h "$out" | cut -f1))"
