# ctest-label: slow
# The library-only build (issue 30.5, -DTLV_LIBRARY_ONLY=ON) as the README
# promises it: configured in a fresh folder, it looks for PCRE2 and cJSON
# only (no SDL2, SDL2_ttf, fontconfig, libpng nor SQLite), builds libtlv, and
# a small program linking the static library converts a line with the
# installed rules' own engine. Only the library targets are built, to keep
# the test short.
. "$(dirname "$0")/lib.sh"
cd "$TMP"

command -v cmake >/dev/null || { echo "SKIP: cmake is not installed"; exit 77; }
# Sanitized and fault-injecting builds link their own runtimes: this checks
# the plain library.
[ "${TLV_SANITIZE:-0}" = 1 ] || [ "${TLV_TSAN:-0}" = 1 ] &&
  { echo "SKIP: the library-only build is checked in the plain build"; exit 77; }

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_C_COMPILER_LAUNCHER=ccache)
run cmake -S "$SRC" -B lib -DTLV_LIBRARY_ONLY=ON -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$TMP/prefix" "${launcher[@]}"
expect_status 0 "configure a library-only build"
# What was looked for: PCRE2 and cJSON, and none of the front end's libraries.
expect_grep lib/CMakeCache.txt '^PCRE2_FOUND' "PCRE2 looked for"
expect_grep lib/CMakeCache.txt '^CJSON_FOUND' "cJSON looked for"
for dep in SDL2 SDL2_TTF FONTCONFIG LIBPNG SQLITE3; do
  checks=$((checks + 1))
  ! grep -q "^${dep}_FOUND" lib/CMakeCache.txt || fail "a library-only build looked for $dep"
done
expect_grep lib/CMakeCache.txt '^BUILD_TESTING:BOOL=OFF' "no tests in a library-only build"

run cmake --build lib -j2 --target tlv_static tlv_shared
expect_status 0 "build libtlv alone"
checks=$((checks + 1))
[ -f lib/libtlv.a ] && ls lib/libtlv.so.* >/dev/null 2>&1 || fail "no libtlv.a or libtlv.so in $(ls lib)"
checks=$((checks + 1))
[ ! -e lib/tlv ] && [ ! -e lib/libtlv-render.a ] || fail "a library-only build made the command or the renderer"
# The shared library needs no SDL, fontconfig, PNG or SQLite.
run ldd lib/libtlv.so
checks=$((checks + 1))
! grep -Eqi 'sdl|fontconfig|png|sqlite' "$TMP/out" || fail "libtlv.so links: $(grep -Ei 'sdl|fontconfig|png|sqlite' "$TMP/out")"

cat >k.resh <<'JSON'
{"k":{"Task":{"Attributes":{"state":{"VariableType":"String","AllocationType":"Dynamic","Default":"IDLE"}}}}}
JSON
cat >k.cnv <<'JSON'
{"k":{"^(?<t>\\d+) run$":"[${t}]A.state=RUNNING"}}
JSON
cat >k.res <<'JSON'
{"TimeScale":"ms","ConvertRules":["k"],"ResourceHeaders":["k"],"Resources":{"A":{"Type":"Task"}}}
JSON
cat >small.c <<'C'
#include <tlv/tlv.h>
#include <stdio.h>

static int print_line(void *user, const tlv_event *event, const char *line, size_t len)
{
    (void)user;
    (void)event;
    printf("%.*s\n", (int)len, line);
    return 0;
}

int main(void)
{
    const char *dirs[] = {"."};
    tlv_rules_options opts;
    tlv_rules_options_init(&opts);
    opts.search_dirs = dirs;
    opts.n_search_dirs = 1;
    tlv_rules *rules = NULL;
    tlv_converter *c = NULL;
    if (tlv_rules_load("k.res", &opts, &rules) != TLV_OK || tlv_converter_new(rules, &c) != TLV_OK)
        return 1;
    tlv_converter_set_line_fn(c, print_line, NULL);
    if (tlv_converter_push_line(c, "5 run", 5) != TLV_OK || tlv_converter_finish(c) != TLV_OK)
        return 1;
    printf("libtlv %s\n", tlv_version());
    tlv_converter_free(c);
    tlv_rules_free(rules);
    return 0;
}
C
run cc -std=c11 -o small small.c -I"$SRC/libtlv/include" lib/libtlv.a \
  $(pkg-config --libs libpcre2-8 libcjson) -lpthread -lm
expect_status 0 "a program links the library-only libtlv.a"
run ./small
expect_status 0 "the program runs"
expect_line "$TMP/out" "[5]A.state=RUNNING" "the program converts a line"
expect_contains "$TMP/out" "libtlv " "the program prints the version"

finish
