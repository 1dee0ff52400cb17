#!/usr/bin/env bash
# test_symbols.sh — libtlv.so exports exactly the public API: every function
# declared with TLV_API in libtlv/include/tlv/*.h, and nothing else (the
# library is compiled with hidden visibility, so a public function left
# unmarked would be missing here, and an internal one could not leak). Also
# checks the SONAME.
. "$(dirname "$0")/lib.sh"

LIB="${TLV_SHARED_LIB:?TLV_SHARED_LIB must point to libtlv.so}"

# Function declarations: code lines (not comments, directives or typedefs)
# naming a tlv_ function; each must be marked TLV_API.
cat "$SRC"/libtlv/include/tlv/*.h | grep -E '^[A-Za-z].*\btlv_[a-z0-9_]+\(' |
  grep -v '^typedef' >"$TMP/decl_lines"
grep -o 'tlv_[a-z0-9_]*(' "$TMP/decl_lines" | tr -d '(' | sort -u >"$TMP/declared"
checks=$((checks + 1))
grep -v '^TLV_API ' "$TMP/decl_lines" >"$TMP/unmarked" &&
  fail "public functions not marked TLV_API: $(tr '\n' ' ' <"$TMP/unmarked")"
nm -D --defined-only "$LIB" | awk '{ print $NF }' | sed 's/@.*//' | sort -u >"$TMP/exported"

checks=$((checks + 1))
[ "$(wc -l <"$TMP/declared")" -gt 50 ] || fail "found only $(wc -l <"$TMP/declared") TLV_API declarations"
checks=$((checks + 1))
grep -v '^tlv_' "$TMP/exported" >"$TMP/other" && fail "exported symbols outside the API: $(tr '\n' ' ' <"$TMP/other")"
checks=$((checks + 1))
comm -23 "$TMP/declared" "$TMP/exported" >"$TMP/missing"
[ -s "$TMP/missing" ] && fail "declared but not exported: $(tr '\n' ' ' <"$TMP/missing")"
checks=$((checks + 1))
comm -13 "$TMP/declared" "$TMP/exported" >"$TMP/extra"
[ -s "$TMP/extra" ] && fail "exported but not declared in a public header: $(tr '\n' ' ' <"$TMP/extra")"

major="$(sed -n 's/^#define TLV_VERSION_MAJOR \([0-9]*\)$/\1/p' "$SRC/libtlv/include/tlv/tlv.h")"
run readelf -d "$LIB"
expect_status 0 "readelf -d libtlv.so"
expect_contains "$TMP/out" "Library soname: [libtlv.so.$major]" "SONAME"

finish
