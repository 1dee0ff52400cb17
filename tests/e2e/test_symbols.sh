#!/usr/bin/env bash
# test_symbols.sh — libtlv.so, libtlv-render.so and libtlv-export.so export
# exactly the public API: every function declared with TLV_API in
# libtlv/include/tlv/*.h (the renderer those of render.h, the exporter those
# of export.h, the core the rest), and nothing else (the
# library is compiled with hidden visibility, so a public function left
# unmarked would be missing here, and an internal one could not leak). The
# static libraries, libtlv.a, libtlv-render.a and libtlv-export.a, define the same globals and
# no other (their internals are made local when they are built), so a
# program linking them statically cannot meet a clash with read_file or
# store_add. Also checks the SONAMEs.
. "$(dirname "$0")/lib.sh"

LIB="${TLV_SHARED_LIB:?TLV_SHARED_LIB must point to libtlv.so}"
RENDER_LIB="${TLV_RENDER_LIB:?TLV_RENDER_LIB must point to libtlv-render.so}"
EXPORT_LIB="${TLV_EXPORT_LIB:?TLV_EXPORT_LIB must point to libtlv-export.so}"

# Function declarations: code lines (not comments, directives or typedefs)
# naming a tlv_ function; each must be marked TLV_API.
cat "$SRC"/libtlv/include/tlv/*.h | grep -E '^[A-Za-z].*\btlv_[a-z0-9_]+\(' |
  grep -v '^typedef' >"$TMP/decl_lines"
checks=$((checks + 1))
grep -v '^TLV_API ' "$TMP/decl_lines" >"$TMP/unmarked" &&
  fail "public functions not marked TLV_API: $(tr '\n' ' ' <"$TMP/unmarked")"

# check_exports LIB MIN HEADER...: LIB exports exactly the TLV_API functions
# declared in the headers (at least MIN of them), and nothing else.
check_exports() {
  local lib="$1" min="$2" name
  name="$(basename "$lib")"
  shift 2
  cat "$@" | grep -E '^TLV_API .*\btlv_[a-z0-9_]+\(' | grep -o 'tlv_[a-z0-9_]*(' | tr -d '(' |
    sort -u >"$TMP/declared"
  nm -D --defined-only "$lib" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$TMP/exported"
  checks=$((checks + 1))
  [ "$(wc -l <"$TMP/declared")" -ge "$min" ] || fail "$name: found only $(wc -l <"$TMP/declared") TLV_API declarations"
  checks=$((checks + 1))
  grep -v '^tlv_' "$TMP/exported" >"$TMP/other" && fail "$name: exported symbols outside the API: $(tr '\n' ' ' <"$TMP/other")"
  checks=$((checks + 1))
  comm -23 "$TMP/declared" "$TMP/exported" >"$TMP/missing"
  [ -s "$TMP/missing" ] && fail "$name: declared but not exported: $(tr '\n' ' ' <"$TMP/missing")"
  checks=$((checks + 1))
  comm -13 "$TMP/declared" "$TMP/exported" >"$TMP/extra"
  [ -s "$TMP/extra" ] && fail "$name: exported but not declared in its public headers: $(tr '\n' ' ' <"$TMP/extra")"
}

# The core, libtlv.so: every header but render.h and export.h; the renderer,
# libtlv-render.so: render.h only (its hidden copies of core helpers stay
# local); the exporter, libtlv-export.so: export.h only.
core_headers=()
for h in "$SRC"/libtlv/include/tlv/*.h; do
  case "$(basename "$h")" in render.h|export.h) ;; *) core_headers+=("$h") ;; esac
done
check_exports "$LIB" 50 "${core_headers[@]}"
check_exports "$RENDER_LIB" 8 "$SRC/libtlv/include/tlv/render.h"
check_exports "$EXPORT_LIB" 10 "$SRC/libtlv/include/tlv/export.h"

# check_archive ARCHIVE SHARED: the globals ARCHIVE defines are exactly the
# symbols SHARED exports, every one with the tlv_ prefix.
check_archive() {
  local name
  name="$(basename "$1")"
  nm -g --defined-only "$1" | awk 'NF == 3 { print $3 }' | sort -u >"$TMP/archive"
  nm -D --defined-only "$2" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$TMP/exported"
  checks=$((checks + 1))
  grep -v '^tlv_' "$TMP/archive" >"$TMP/other" &&
    fail "$name: $(wc -l <"$TMP/other") globals without the tlv_ prefix: $(head -20 "$TMP/other" | tr '\n' ' ')"
  checks=$((checks + 1))
  cmp -s "$TMP/archive" "$TMP/exported" ||
    fail "$name: its globals differ from $(basename "$2")'s exports:$(echo; diff "$TMP/archive" "$TMP/exported" | head -20)"
}
check_archive "${TLV_STATIC_LIB:?}" "$LIB"
check_archive "${TLV_RENDER_STATIC_LIB:?}" "$RENDER_LIB"
check_archive "${TLV_EXPORT_STATIC_LIB:?}" "$EXPORT_LIB"

major="$(sed -n 's/^#define TLV_VERSION_MAJOR \([0-9]*\)$/\1/p' "$SRC/libtlv/include/tlv/tlv.h")"
run readelf -d "$LIB"
expect_status 0 "readelf -d libtlv.so"
expect_contains "$TMP/out" "Library soname: [libtlv.so.$major]" "SONAME"
run readelf -d "$RENDER_LIB"
expect_status 0 "readelf -d libtlv-render.so"
expect_contains "$TMP/out" "Library soname: [libtlv-render.so.$major]" "SONAME of the renderer"
expect_contains "$TMP/out" "Shared library: [libtlv.so.$major]" "the renderer needs libtlv"
run readelf -d "$EXPORT_LIB"
expect_status 0 "readelf -d libtlv-export.so"
expect_contains "$TMP/out" "Library soname: [libtlv-export.so.$major]" "SONAME of the exporter"
expect_contains "$TMP/out" "Shared library: [libtlv.so.$major]" "the exporter needs libtlv"
expect_contains "$TMP/out" "Shared library: [libsqlite3.so" "the exporter needs SQLite"
run readelf -d "$LIB"
checks=$((checks + 1))
grep -q 'libsqlite3' "$TMP/out" && fail "libtlv.so needs SQLite: it must need PCRE2 and cJSON only"

finish
