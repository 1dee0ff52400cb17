#!/usr/bin/env bash
# scripts/check_layers.sh [ROOT] — the dependency rules of docs/architecture.md,
# checked over the #include lines of the sources under ROOT (default: this
# repository). Fails (exit 1, one line per violation, FILE:LINE first) when
#   - a library source (libtlv/src) includes a header of a higher layer;
#   - a viewer panel (viewer/panel_*.c) includes a project header other than
#     view.h (the core) and view_panels.h (the constructors' declarations),
#     i.e. another panel, or defines a function other than its constructor
#     (NAME_panel_new) that another file could call;
#   - a file of the viewer's core (viewer/view*.c, view.h) includes a panel
#     or view_panels.h (only cmd_view.c, which registers them, may).
# A library file in no layer is reported as a warning (add it to LAYERS
# below and to docs/architecture.md). Exit 0 when every arrow points down.
set -u
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
[ -d "$root/libtlv/src" ] || { echo "check_layers: no libtlv/src under '$root'" >&2; exit 2; }

# The library's layers, bottom first: name, then the files' base names (shell
# patterns, without .c/.h). A file may include files of its own layer and
# of the layers below it. "tlv/NAME" are the public headers (declarations).
LAYERS=(
  "base       buf intern json diag abi utf8 locate time calc clock cond state stdform prefilter evcache tlv/*"
  "model      model"
  "compile    template expand macro dynres"
  "world      world world_*"
  "rules      rules rules_impl cnv check check_*"
  "converter  convert convert_impl script"
  "trace      trace trace_impl"
  "store      store"
  "visualize  viz viz_* figure figure_* summary breakdown counters stats"
  "render     render render_*"
)

# layer_of NAME: sets L (index) and LNAME, or L=-1.
layer_of() {
  local i pat
  local -a words # read -a: the patterns stay patterns (no file name expansion)
  L=-1
  LNAME=""
  for i in "${!LAYERS[@]}"; do
    read -ra words <<<"${LAYERS[$i]}"
    for pat in "${words[@]:1}"; do
      # shellcheck disable=SC2053
      if [[ $1 == $pat ]]; then
        L=$i
        LNAME=${words[0]}
        return
      fi
    done
  done
}

errors=0
violation() { echo "$1"; errors=$((errors + 1)); }

# includes FILE: "LINE NAME" for each #include "NAME" of FILE.
includes() { awk '/^[ \t]*#[ \t]*include[ \t]*"/ { s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); print FNR, s }' "$1"; }

# ---- the library -----------------------------------------------------------------
shopt -s nullglob
for f in "$root"/libtlv/src/*.c "$root"/libtlv/src/*.h; do
  rel=${f#"$root"/}
  base=$(basename "$f")
  base=${base%.*}
  layer_of "$base"
  if [ "$L" -lt 0 ]; then
    echo "check_layers: warning: $rel is in no layer (scripts/check_layers.sh LAYERS)" >&2
    continue
  fi
  from=$L
  from_name=$LNAME
  while read -r line inc; do
    name=${inc%.h}
    layer_of "$name"
    [ "$L" -lt 0 ] && continue # unplaced (warned about above) or not ours
    if [ "$L" -gt "$from" ]; then
      violation "$rel:$line: includes $inc (layer $LNAME) from layer $from_name: a lower layer must not include a higher one"
    fi
  done < <(includes "$f")
done

# ---- the viewer ------------------------------------------------------------------------
for f in "$root"/viewer/panel_*.c; do
  rel=${f#"$root"/}
  while read -r line inc; do
    case "$inc" in view.h | view_panels.h) continue ;; esac
    violation "$rel:$line: includes $inc: a panel depends on the core (view.h) only, never on another panel"
  done < <(includes "$f")
  # Functions with external linkage: a definition's first line at column 0,
  # not static, not a declaration.
  while read -r line fn; do
    case "$fn" in
      *_panel_new) ;;
      *) violation "$rel:$line: defines $fn() for other files: a panel exports only its constructor (NAME_panel_new)" ;;
    esac
  done < <(awk '/^[A-Za-z_]/ && !/^(static|typedef|struct|enum|union|extern)[ \t]/ && !/;[ \t]*$/ && /\(/ {
                  s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/); print FNR, w[n] }' "$f")
done
for f in "$root"/viewer/view*.c "$root"/viewer/view.h; do
  rel=${f#"$root"/}
  while read -r line inc; do
    case "$inc" in
      panel_* | view_panels.h)
        violation "$rel:$line: includes $inc: the viewer's core knows no panel (cmd_view.c registers them)" ;;
    esac
  done < <(includes "$f")
done

if [ "$errors" -gt 0 ]; then
  echo "check_layers: $errors include(s) against the layers of docs/architecture.md" >&2
  exit 1
fi
echo "check_layers: every include points down (library layers, viewer core and panels)"
exit 0
