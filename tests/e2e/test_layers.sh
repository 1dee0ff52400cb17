# The layer check (scripts/check_layers.sh, docs/architecture.md): the
# repository passes it, and it fails with exact messages on a small tree
# with each kind of mistake — a library file including a higher layer or a
# header without its folder, a file in no layer, a front-end file including
# a library internal or a higher layer, a panel including another panel or
# the core's state or exporting a function, the view's core including a
# panel, the core's state included outside view/, a folder missing from
# docs/architecture.md — while includes that point down, within a layer, or
# to system and public headers pass. And view.h's example of a panel is
# true: compiled as panel_clock.c with its one row in view_panels.h, with
# the build's warnings, it passes the check too.
. "$(dirname "$0")/lib.sh"
CHECK="$SRC/scripts/check_layers.sh"

# ---- the repository ----------------------------------------------------------------
run bash "$CHECK" "$SRC"
expect_status 0 "the repository's includes point down"
expect_grep "$TMP/out" "^check_layers: every include points down and every folder is explained ([0-9]* folders)\$" \
  "the repository: the all-clear"

# ---- a tree with one of each mistake ------------------------------------------------------
T="$TMP/tree"
mkdir -p "$T/libtlv/src/model" "$T/libtlv/src/world" "$T/libtlv/src/base" "$T/libtlv/src/gadgets" \
  "$T/common" "$T/view/panels" "$T/cli" "$T/docs"
# library: model includes world (higher): wrong; world includes model,
# compile (lower) and its own folder: right; a header without its folder.
printf '#include "model/model.h"\n#include "world/world.h"\n#include <stdio.h>\n#include <tlv/tlv.h>\n' \
  >"$T/libtlv/src/model/model.c"
printf '#include "world/world.h"\n\n#include "compile/macro.h"\n#include "model/model.h"\n' \
  >"$T/libtlv/src/world/world.c"
printf '#include "buf.h"\n' >"$T/libtlv/src/world/world.h"
printf '#include "tlv/tlv.h"\n' >"$T/libtlv/src/newthing.c"
printf '#include "base/buf.h"\n' >"$T/libtlv/src/gadgets/gadget.c"
# front end: common includes a library internal; the view core includes
# cli (higher) and a panel; a panel includes another panel and exports a
# helper; one panel that is right; cli may include anything below it.
printf '#include "common/common.h"\n#include "world/world.h"\n' >"$T/common/options.c"
printf '#include "view/view.h"\n#include "cli/cli.h"\n#include "view/view_panels.h"\n' >"$T/view/view_draw.c"
cat >"$T/view/panels/panel_bad.c" <<'EOF'
#include "view/view.h"
#include "view/panels/panel_good.c"
#include "view/core.h"

#include <stdlib.h>

int bad_helper(int x)
{
    return x;
}

view_panel *bad_panel_new(void)
{
    return NULL;
}
EOF
cat >"$T/view/panels/panel_good.c" <<'EOF'
#include "view/view.h"
#include "view/view_panels.h"

static int key(view_panel *p, view_app *a, SDL_Keycode key, int mods);

static int key(view_panel *p, view_app *a, SDL_Keycode key, int mods)
{
    return 0;
}

view_panel *good_panel_new(void)
{
    return NULL;
}
EOF
printf '#include "cli/cli.h"\n#include "view/view.h"\n#include "view/view_panels.h"\n#include "common/common.h"\n' \
  >"$T/cli/cmd_view.c"
printf '#include "view/session.h"\n#include "view/core.h"\n' >"$T/cli/export_sqlite.c"
# The doc explains every folder but libtlv/src/world/ and cli/.
printf '### `libtlv/src/base/`\n### `libtlv/src/model/`\n### `common/`\n### `view/`\n### `view/panels/`\n' \
  >"$T/docs/architecture.md"

run bash "$CHECK" "$T"
expect_status 1 "a tree with bad includes"
cat >"$TMP/expected" <<'EOF'
libtlv/src/gadgets/gadget.c: in no layer: libtlv/src/gadgets/ is not in LIBRARY_LAYERS (scripts/check_layers.sh)
libtlv/src/model/model.c:2: includes world/world.h (layer world) from layer model: a lower layer must not include a higher one
libtlv/src/newthing.c: in no layer: a library file belongs in one folder of libtlv/src named in LIBRARY_LAYERS (scripts/check_layers.sh)
libtlv/src/world/world.h:1: includes buf.h without its folder: write it as FOLDER/buf.h
common/options.c:2: includes world/world.h: the front end uses libtlv's public headers (<tlv/...>) and its own folders only
view/panels/panel_bad.c:2: includes view/panels/panel_good.c: a panel depends on the panel API (view/view.h) only, never on the core's state or another panel
view/panels/panel_bad.c:3: includes view/core.h: a panel depends on the panel API (view/view.h) only, never on the core's state or another panel
view/view_draw.c:2: includes cli/cli.h (layer cli) from layer view: a lower layer must not include a higher one
view/view_draw.c:3: includes view/view_panels.h: the view's core knows no panel (cli/cmd_view.c registers them)
cli/export_sqlite.c:2: includes view/core.h: the view core's private state is for the files of view/ (the window's API is view/view.h)
view/panels/panel_bad.c:7: defines bad_helper() for other files: a panel exports only its constructor (NAME_panel_new)
docs/architecture.md: no paragraph for libtlv/src/world/ (a heading '### `libtlv/src/world/`' and what the folder holds)
docs/architecture.md: no paragraph for cli/ (a heading '### `cli/`' and what the folder holds)
EOF
checks=$((checks + 1))
diff "$TMP/expected" "$TMP/out" >"$TMP/diff" || fail "bad includes: the report differs:$(echo; cat "$TMP/diff")"
expect_line "$TMP/err" "check_layers: 13 problem(s) with the layers of docs/architecture.md" \
  "bad includes: the count"

# ---- the same tree, put right --------------------------------------------------------------
printf '#include "model/model.h"\n#include <stdio.h>\n' >"$T/libtlv/src/model/model.c"
printf '#include "base/buf.h"\n' >"$T/libtlv/src/world/world.h"
rm -r "$T/libtlv/src/newthing.c" "$T/libtlv/src/gadgets"
printf '#include "common/common.h"\n#include <tlv/tlv.h>\n' >"$T/common/options.c"
sed -i '/panel_good.c/d; /core.h/d; /^int bad_helper/,/^}/d' "$T/view/panels/panel_bad.c"
printf '#include "view/session.h"\n' >"$T/cli/export_sqlite.c"
printf '#include "view/view.h"\n#include "common/common.h"\n' >"$T/view/view_draw.c"
printf '### `libtlv/src/world/`\n### `cli/`\n' >>"$T/docs/architecture.md"
run bash "$CHECK" "$T"
expect_status 0 "the tree put right"
expect_line "$TMP/out" "check_layers: every include points down and every folder is explained (7 folders)" \
  "the tree put right: the all-clear"

# ---- view.h's example: a panel is one new file and one row ---------------------------------
# The example between BEGIN EXAMPLE and END EXAMPLE, as view/panels/panel_clock.c
# of a copy of the front end, with X(clock) added to VIEW_PANELS: it compiles
# with the build's warnings (its constructor matching the row's declaration)
# and the layer check passes.
E="$TMP/example"
mkdir -p "$E/libtlv/src/base" "$E/docs"
cp -r "$SRC/common" "$SRC/view" "$SRC/cli" "$E/"
cp "$SRC/docs/architecture.md" "$E/docs/"
sed -n '/^ \* BEGIN EXAMPLE$/,/^ \* END EXAMPLE$/p' "$SRC/view/view.h" | sed '1d;$d' |
  sed -E 's/^ \*( {5})?//' >"$E/view/panels/panel_clock.c"
checks=$((checks + 1))
grep -q '^view_panel \*clock_panel_new(void)$' "$E/view/panels/panel_clock.c" ||
  fail "view.h's example: no constructor clock_panel_new in$(echo; cat "$E/view/panels/panel_clock.c")"
sed -i 's|^    X(markers) |    X(clock) X(markers) |' "$E/view/view_panels.h"
expect_contains "$E/view/view_panels.h" "X(clock) X(markers)" "the example's row in VIEW_PANELS"
run bash "$CHECK" "$E"
expect_status 0 "the example panel passes the layer check"
CC=${CC:-cc}
if command -v "$CC" >/dev/null && pkg-config --exists sdl2 libcjson 2>/dev/null; then
  # shellcheck disable=SC2046
  run "$CC" -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$E" -I"$SRC/libtlv/include" \
    $(pkg-config --cflags sdl2 libcjson) "$E/view/panels/panel_clock.c"
  expect_status 0 "view.h's example compiles as a panel"
  # And the row declares what the panels' table in cli/cmd_view.c takes.
  printf '#include "view/view_panels.h"\n#define M(n) n##_panel_new,\nview_panel *(*const t[])(void) = {VIEW_PANELS(M)};\n' \
    >"$E/table.c"
  # shellcheck disable=SC2046
  run "$CC" -std=c11 -Wall -Wextra -Werror -fsyntax-only -I"$E" -I"$SRC/libtlv/include" \
    $(pkg-config --cflags sdl2 libcjson) "$E/table.c"
  expect_status 0 "VIEW_PANELS with the example's row makes the panels' table"
else
  echo "note: no C compiler or pkg-config for SDL2 and cJSON: the example is not compiled"
fi

# ---- the build stops on a layer error ------------------------------------------------------
expect_contains "$SRC/CMakeLists.txt" 'COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check_layers.sh' \
  "the build runs the check"

finish
