# The layer check (scripts/check_layers.sh, docs/architecture.md): the
# repository passes it, and it fails with exact messages on a small tree
# with each kind of bad include — a library file including a higher layer,
# a viewer panel including another panel, a panel exporting a function, the
# viewer's core including a panel — while includes that point down, within
# a layer, or to system headers pass, and a file in no layer only warns.
. "$(dirname "$0")/lib.sh"
CHECK="$SRC/scripts/check_layers.sh"

# ---- the repository ----------------------------------------------------------------
run bash "$CHECK" "$SRC"
expect_status 0 "the repository's includes point down"
expect_line "$TMP/out" "check_layers: every include points down (library layers, viewer core and panels)" \
  "the repository: the all-clear"

# ---- a tree with one of each mistake ------------------------------------------------------
T="$TMP/tree"
mkdir -p "$T/libtlv/src" "$T/viewer"
# library: model (layer model) includes world.h (layer world): wrong;
# world.c includes model.h, macro.h (lower) and world.h (its own): right.
printf '#include "model.h"\n#include "world.h"\n#include <stdio.h>\n' >"$T/libtlv/src/model.c"
printf '#include "world.h"\n\n#include "macro.h"\n#include "model.h"\n' >"$T/libtlv/src/world.c"
printf '#include "buf.h"\n' >"$T/libtlv/src/world.h"
printf '#include "tlv/tlv.h"\n' >"$T/libtlv/src/newthing.c"
# viewer: a panel that includes another panel and exports a helper; one
# that is right (view.h, and view_panels.h for its constructor's
# declaration); the core including the panel list.
cat >"$T/viewer/panel_bad.c" <<'EOF'
#include "view.h"
#include "panel_good.c"

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
cat >"$T/viewer/panel_good.c" <<'EOF'
#include "view.h"
#include "view_panels.h"

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
printf '#include "view.h"\n#include "view_panels.h"\n' >"$T/viewer/view_draw.c"
printf '#include "view.h"\n#include "view_panels.h"\n' >"$T/viewer/cmd_view.c"

run bash "$CHECK" "$T"
expect_status 1 "a tree with bad includes"
cat >"$TMP/expected" <<'EOF'
libtlv/src/model.c:2: includes world.h (layer world) from layer model: a lower layer must not include a higher one
viewer/panel_bad.c:2: includes panel_good.c: a panel depends on the core (view.h) only, never on another panel
viewer/panel_bad.c:6: defines bad_helper() for other files: a panel exports only its constructor (NAME_panel_new)
viewer/view_draw.c:2: includes view_panels.h: the viewer's core knows no panel (cmd_view.c registers them)
EOF
checks=$((checks + 1))
diff "$TMP/expected" "$TMP/out" >"$TMP/diff" || fail "bad includes: the report differs:$(echo; cat "$TMP/diff")"
expect_line "$TMP/err" "check_layers: 4 include(s) against the layers of docs/architecture.md" \
  "bad includes: the count"
expect_line "$TMP/err" \
  "check_layers: warning: libtlv/src/newthing.c is in no layer (scripts/check_layers.sh LAYERS)" \
  "a file in no layer: a warning"

# ---- the same tree, put right --------------------------------------------------------------
printf '#include "model.h"\n#include <stdio.h>\n' >"$T/libtlv/src/model.c"
sed -i '/panel_good.c/d; /^int bad_helper/,/^}/d' "$T/viewer/panel_bad.c"
printf '#include "view.h"\n' >"$T/viewer/view_draw.c"
run bash "$CHECK" "$T"
expect_status 0 "the tree put right"
expect_line "$TMP/out" "check_layers: every include points down (library layers, viewer core and panels)" \
  "the tree put right: the all-clear"

finish
