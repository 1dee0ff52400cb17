#!/usr/bin/env bash
# test_embed.sh — libtlv as an embedder gets it: installs the build into a
# temporary prefix (cmake --install), checks what is installed, then builds
# samples/embed/embed.c against the installed library three ways — a cc line
# with pkg-config, the sample's Makefile, and a CMake project using
# find_package(tlv) (tlv::tlv and tlv::tlv_static) — and runs each on the
# mini log fed through standard input, expecting the exact running times;
# and that the installed library and command find the installed rules.
# The core library links no GUI library: the convert-only program's ldd
# shows no SDL, X11 or fontconfig; samples/embed/draw.c, built against the
# renderer (libtlv-render; tlv::render, tlv::render_static), draws the mini
# trace into a PPM image. The installed command exports SQLite and Chrome
# JSON and queries.
. "$(dirname "$0")/lib.sh"

BUILD="$(dirname "$TLV")"
PREFIX="$TMP/prefix"
MINI="$SRC/tests/e2e/mini"
# A sanitizer build installs an instrumented library: its users need the runtime too.
SAN=""
[ "${TLV_SANITIZE:-0}" = 1 ] && SAN="-fsanitize=address,undefined"
[ "${TLV_TSAN:-0}" = 1 ] && SAN="-fsanitize=thread"

run cmake --install "$BUILD" --prefix "$PREFIX"
expect_status 0 "cmake --install"
for f in bin/tlv include/tlv/tlv.h include/tlv/convert.h include/tlv/trace.h include/tlv/shapes.h \
         include/tlv/render.h include/tlv/rules.h share/tlv/rules/toppers_asp.cnv; do
  checks=$((checks + 1))
  [ -f "$PREFIX/$f" ] || fail "not installed: $f"
done
pc="$(find "$PREFIX" -name libtlv.pc)"
for f in libtlv.a libtlv.so libtlv.so.0 pkgconfig/libtlv.pc cmake/tlv/tlvConfig.cmake \
         libtlv-render.a libtlv-render.so libtlv-render.so.0 pkgconfig/libtlv-render.pc; do
  checks=$((checks + 1))
  [ -e "$(dirname "$(dirname "$pc")")/$f" ] || fail "not installed in the library directory: $f"
done

export PKG_CONFIG_PATH="$(dirname "$pc")"
run pkg-config --modversion libtlv
expect_line "$TMP/out" "$(sed -n 's/^#define TLV_VERSION_STRING "\(.*\)"$/\1/p' "$SRC/libtlv/include/tlv/tlv.h")" "pkg-config --modversion"
libdir="$(pkg-config --variable=libdir libtlv)"

cat >"$TMP/expected" <<'OUT'
IDLE_LOOP 400 us
ctrl 300 us
log 150 us
OUT

# run_embed BINARY WHAT: the mini log through standard input, exact output.
run_embed() {
  "$1" -R "$MINI" "$MINI/mini.res" <"$MINI/mini.log" >"$TMP/out" 2>"$TMP/err"
  status=$?
  expect_status 0 "$2"
  checks=$((checks + 1))
  cmp -s "$TMP/out" "$TMP/expected" || fail "$2: output differs:$(echo; diff "$TMP/expected" "$TMP/out")"
}

# 1. A cc line, as the sample's README gives it.
# shellcheck disable=SC2046
run cc -std=c11 -Wall -Wextra -Werror $SAN $(pkg-config --cflags libtlv) \
  -o "$TMP/embed" "$SRC/samples/embed/embed.c" $(pkg-config --libs libtlv) -Wl,-rpath,"$libdir"
expect_status 0 "cc embed.c with pkg-config"
[ "$status" -eq 0 ] && run_embed "$TMP/embed" "embed (cc + pkg-config)"
checks=$((checks + 1))
readelf -d "$TMP/embed" | grep -q 'NEEDED.*libtlv\.so\.0' || fail "embed is not linked to libtlv.so.0"

# 1b. The core needs no GUI library: not in pkg-config's flags (static ones
# included), not among what the convert-only program loads.
for flags in --libs "--libs --static"; do
  # shellcheck disable=SC2086
  run pkg-config $flags libtlv
  expect_status 0 "pkg-config $flags libtlv"
  checks=$((checks + 1))
  grep -qiE 'sdl|fontconfig|X11|png' "$TMP/out" && fail "pkg-config $flags libtlv names a GUI library: $(cat "$TMP/out")"
done
run ldd "$TMP/embed"
expect_status 0 "ldd embed"
expect_contains "$TMP/out" "libtlv.so.0 => $libdir/libtlv.so.0" "embed loads the installed libtlv"
checks=$((checks + 1))
grep -iE 'SDL|libX11|fontconfig|freetype|pulse|libpng' "$TMP/out" >"$TMP/gui" &&
  fail "the convert-only program loads GUI libraries:$(echo; cat "$TMP/gui")"

# check_draw BINARY WHAT: the renderer sample draws the mini trace into a
# 320x96 PPM image with more than a background in it.
check_draw() {
  "$1" -R "$MINI" "$MINI/mini.res" "$MINI/mini.log" 320 96 >"$TMP/draw.ppm" 2>"$TMP/err"
  status=$?
  expect_status 0 "$2"
  checks=$((checks + 1))
  [ "$(head -c 14 "$TMP/draw.ppm")" = "$(printf 'P6\n320 96\n255\n')" ] ||
    fail "$2: not a 320x96 PPM: $(head -c 14 "$TMP/draw.ppm" | od -An -c)"
  checks=$((checks + 1))
  [ "$(wc -c <"$TMP/draw.ppm")" -eq $((14 + 320 * 96 * 3)) ] || fail "$2: $(wc -c <"$TMP/draw.ppm") bytes"
  checks=$((checks + 1))
  [ "$(tail -c +15 "$TMP/draw.ppm" | od -An -v -tx1 | tr -s ' ' '\n' | sort -u | wc -l)" -gt 8 ] ||
    fail "$2: the picture has (almost) one colour"
}

# 1c. The renderer through pkg-config libtlv-render (which brings libtlv).
# shellcheck disable=SC2046
run cc -std=c11 -Wall -Wextra -Werror $SAN $(pkg-config --cflags libtlv-render) \
  -o "$TMP/draw" "$SRC/samples/embed/draw.c" $(pkg-config --libs libtlv-render) -Wl,-rpath,"$libdir"
expect_status 0 "cc draw.c with pkg-config libtlv-render"
if [ "$status" -eq 0 ]; then
  check_draw "$TMP/draw" "draw (cc + pkg-config)"
  run ldd "$TMP/draw"
  expect_contains "$TMP/out" "libtlv-render.so.0 => $libdir/libtlv-render.so.0" "draw loads the installed renderer"
  expect_contains "$TMP/out" "libSDL2" "the renderer loads SDL2"
fi

# 2. The sample's Makefile.
mkdir -p "$TMP/make" && cp "$SRC"/samples/embed/{embed.c,draw.c,Makefile} "$TMP/make/"
run make -C "$TMP/make" CFLAGS="-std=c11 -O2 -Wall -Wextra -Werror $SAN"
expect_status 0 "make in samples/embed"
[ "$status" -eq 0 ] && run_embed "$TMP/make/embed" "embed (Makefile)"
[ "$status" -eq 0 ] && check_draw "$TMP/make/draw" "draw (Makefile)"

# 2b. Installed under another prefix than configured, the library (shared, in
# embed; static, in the tlv command) finds its rules under that prefix: put
# the mini rules there and leave out -R (the source tree does not have them).
cp "$MINI"/mini.cnv "$MINI"/mini.resh "$MINI"/mini.viz "$PREFIX/share/tlv/rules/"
"$TMP/embed" "$MINI/mini.res" <"$MINI/mini.log" >"$TMP/out" 2>"$TMP/err"
status=$?
expect_status 0 "embed without -R: installed rules"
checks=$((checks + 1))
cmp -s "$TMP/out" "$TMP/expected" || fail "embed without -R: output differs"
run "$PREFIX/bin/tlv" convert -r "$MINI/mini.res" "$MINI/mini.log"
expect_status 0 "installed tlv: installed rules"
expect_line "$TMP/out" "[380]ctrl.call(sleep\(10\))" "installed tlv converts with the installed rules"

# 2c. The installed command's interop: SQL over the mini log, a database
# that a second query reads, and the Chrome export's structure.
run "$PREFIX/bin/tlv" export -f sqlite -R "$MINI" -r "$MINI/mini.res" -o "$TMP/mini.db" "$MINI/mini.log"
expect_status 0 "installed tlv export --format sqlite"
run "$PREFIX/bin/tlv" query -f csv "$TMP/mini.db" "SELECT r.name, SUM(i.dur) FROM intervals i JOIN resources r ON r.id = i.resource_id WHERE i.rule = 'taskState' AND i.value = 'RUNNING' GROUP BY r.name ORDER BY r.name"
expect_status 0 "installed tlv query"
expect_line "$TMP/out" "ctrl,300.0"$'\r' "installed tlv query: ctrl's running time"
if command -v python3 >/dev/null; then
  run "$PREFIX/bin/tlv" export -R "$MINI" -r "$MINI/mini.res" -o "$TMP/mini.json" "$MINI/mini.log"
  run python3 "$SRC/tests/e2e/chrome_check.py" "$TMP/mini.json"
  expect_status 0 "installed tlv export --format chrome checks: $(head -3 "$TMP/out")"
fi

# 3. find_package(tlv): the shared and the static imported targets.
mkdir -p "$TMP/cm"
cp "$SRC/samples/embed/embed.c" "$SRC/samples/embed/draw.c" "$TMP/cm/"
cat >"$TMP/cm/CMakeLists.txt" <<'CM'
cmake_minimum_required(VERSION 3.16)
project(embed_cmake LANGUAGES C)
find_package(tlv 0.1 REQUIRED)
add_executable(embed embed.c)
target_link_libraries(embed PRIVATE tlv::tlv)
add_executable(embed_static embed.c)
target_link_libraries(embed_static PRIVATE tlv::tlv_static)
add_executable(draw draw.c)
target_link_libraries(draw PRIVATE tlv::render)
add_executable(draw_static draw.c)
target_link_libraries(draw_static PRIVATE tlv::render_static)
CM
run cmake -S "$TMP/cm" -B "$TMP/cm/build" -DCMAKE_PREFIX_PATH="$PREFIX" \
  -DCMAKE_C_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN"
expect_status 0 "cmake configure with find_package(tlv)"
run cmake --build "$TMP/cm/build"
expect_status 0 "cmake build against tlv::tlv, tlv::tlv_static, tlv::render, tlv::render_static"
if [ "$status" -eq 0 ]; then
  run_embed "$TMP/cm/build/embed" "embed (find_package, tlv::tlv)"
  run_embed "$TMP/cm/build/embed_static" "embed (find_package, tlv::tlv_static)"
  check_draw "$TMP/cm/build/draw" "draw (find_package, tlv::render)"
  check_draw "$TMP/cm/build/draw_static" "draw (find_package, tlv::render_static)"
  checks=$((checks + 1))
  ldd "$TMP/cm/build/embed" | grep -qi sdl && fail "embed (tlv::tlv) loads SDL"
fi

finish
