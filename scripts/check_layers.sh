#!/usr/bin/env bash
# scripts/check_layers.sh [ROOT] — the layers of docs/architecture.md, checked
# over the folders and #include lines of the sources under ROOT (default: this
# repository). The build runs it (a layer error is a build error) and so do
# the tests (tests/e2e/test_layers.sh). Fails (exit 1, one line per problem,
# FILE[:LINE] first) when
#   - a source is in no layer: a file directly in libtlv/src/, or in a folder
#     that LIBRARY_LAYERS / FRONT_LAYERS below do not name;
#   - a library file includes a header of a higher layer, or a project header
#     without its folder ("buf.h" instead of "base/buf.h");
#   - a front-end file (common/, view/, cli/) includes a library internal, or
#     a header of a higher front-end layer;
#   - a panel (view/panels/) includes a project header other than the panel
#     API (view/view.h) and the panels' list (view/view_panels.h), or
#     defines a function other than its constructor (NAME_panel_new) that
#     another file could call;
#   - the view's core (view/) includes a panel or the panels' list;
#   - a file outside view/ includes the core's private state (view/core.h);
#   - a folder has no paragraph in docs/architecture.md (a "### `FOLDER/`"
#     heading).
# Exit 0 when every arrow points down and every folder is explained.
set -u
root=${1:-"$(cd "$(dirname "$0")/.." && pwd)"}
[ -d "$root/libtlv/src" ] || { echo "check_layers: no libtlv/src under '$root'" >&2; exit 2; }

# The library's layers, bottom first: each a folder of libtlv/src. A file may
# include headers of its own folder and of the folders below it, always
# written with the folder ("world/world.h"); <tlv/NAME.h> (the public
# headers) may be included from anywhere.
LIBRARY_LAYERS=(base lang model compile world rules convert trace shape viz analyze render export)
# The front end's layers above the library's public API, bottom first: each a
# folder of the repository. view/panels is a layer of its own, above the
# view's core: a panel uses the core, the core knows no panel.
FRONT_LAYERS=(common view view/panels cli)

errors=0
problem() { echo "$1"; errors=$((errors + 1)); }

# index_of NAME LIST...: the position of NAME in LIST, or -1.
index_of() {
  local name=$1 i=0
  shift
  for x in "$@"; do
    [ "$x" = "$name" ] && { echo "$i"; return; }
    i=$((i + 1))
  done
  echo -1
}

# includes FILE: "LINE NAME" for each #include "NAME" of FILE.
includes() { awk '/^[ \t]*#[ \t]*include[ \t]*"/ { s = $0; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); print FNR, s }' "$1"; }

# ---- the library ---------------------------------------------------------------------
while IFS= read -r f; do
  rel=${f#"$root"/}
  sub=${rel#libtlv/src/}
  if [[ $sub != */* || $sub == */*/* ]]; then
    problem "$rel: in no layer: a library file belongs in one folder of libtlv/src named in LIBRARY_LAYERS (scripts/check_layers.sh)"
    continue
  fi
  folder=${sub%%/*}
  from=$(index_of "$folder" "${LIBRARY_LAYERS[@]}")
  if [ "$from" -lt 0 ]; then
    problem "$rel: in no layer: libtlv/src/$folder/ is not in LIBRARY_LAYERS (scripts/check_layers.sh)"
    continue
  fi
  while read -r line inc; do
    case "$inc" in
      tlv/*) continue ;;
      */*)
        to=$(index_of "${inc%%/*}" "${LIBRARY_LAYERS[@]}")
        if [ "$to" -lt 0 ]; then
          problem "$rel:$line: includes $inc: not a folder of the library"
        elif [ "$to" -gt "$from" ]; then
          problem "$rel:$line: includes $inc (layer ${inc%%/*}) from layer $folder: a lower layer must not include a higher one"
        fi ;;
      *) problem "$rel:$line: includes $inc without its folder: write it as FOLDER/$inc" ;;
    esac
  done < <(includes "$f")
done < <(find "$root/libtlv/src" -type f \( -name '*.c' -o -name '*.h' \) | sort)

# ---- the front end: common/, view/ (its core), view/panels/, cli/ -------------------------
front_layer_of() { # FILE (relative): the front-end layer it is in, or ""
  local d=${1%/*}
  [ "$d" = "$1" ] && { echo ""; return; }
  [ "$(index_of "$d" "${FRONT_LAYERS[@]}")" -ge 0 ] && echo "$d" || echo ""
}
for top in common view cli; do
  [ -d "$root/$top" ] || continue
  while IFS= read -r f; do
    rel=${f#"$root"/}
    folder=$(front_layer_of "$rel")
    if [ -z "$folder" ]; then
      problem "$rel: in no layer: ${rel%/*}/ is not in FRONT_LAYERS (scripts/check_layers.sh)"
      continue
    fi
    from=$(index_of "$folder" "${FRONT_LAYERS[@]}")
    while read -r line inc; do
      to_folder=${inc%/*}
      [ "$to_folder" = "$inc" ] && to_folder=""
      to=$(index_of "$to_folder" "${FRONT_LAYERS[@]}")
      if [ "$to" -lt 0 ]; then
        problem "$rel:$line: includes $inc: the front end uses libtlv's public headers (<tlv/...>) and its own folders only"
        continue
      fi
      if [ "$folder" = view/panels ]; then
        case "$inc" in
          view/view.h | view/view_panels.h) ;;
          *) problem "$rel:$line: includes $inc: a panel depends on the panel API (view/view.h) only, never on the core's state or another panel" ;;
        esac
      elif [ "$inc" = view/core.h ] && [ "$folder" != view ]; then
        problem "$rel:$line: includes view/core.h: the view core's private state is for the files of view/ (the window's API is view/view.h)"
      elif [ "$folder" = view ] && { [ "$to_folder" = view/panels ] || [ "$inc" = view/view_panels.h ]; }; then
        problem "$rel:$line: includes $inc: the view's core knows no panel (cli/cmd_view.c registers them)"
      elif [ "$to" -gt "$from" ]; then
        problem "$rel:$line: includes $inc (layer $to_folder) from layer $folder: a lower layer must not include a higher one"
      fi
    done < <(includes "$f")
  done < <(find "$root/$top" -type f \( -name '*.c' -o -name '*.h' \) | sort)
done

# A panel exports its constructor only: functions with external linkage are
# definitions whose first line is at column 0, not static, not a declaration.
for f in "$root"/view/panels/*.c; do
  [ -e "$f" ] || continue
  rel=${f#"$root"/}
  while read -r line fn; do
    case "$fn" in
      *_panel_new) ;;
      *) problem "$rel:$line: defines $fn() for other files: a panel exports only its constructor (NAME_panel_new)" ;;
    esac
  done < <(awk '/^[A-Za-z_]/ && !/^(static|typedef|struct|enum|union|extern)[ \t]/ && !/;[ \t]*$/ && /\(/ {
                  s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/); print FNR, w[n] }' "$f")
done

# ---- every folder explained in docs/architecture.md ------------------------------------------
doc="$root/docs/architecture.md"
folders=()
for l in "${LIBRARY_LAYERS[@]}"; do
  [ -d "$root/libtlv/src/$l" ] && folders+=("libtlv/src/$l/")
done
for l in "${FRONT_LAYERS[@]}"; do
  [ -d "$root/$l" ] && folders+=("$l/")
done
for d in "${folders[@]}"; do
  grep -qF "### \`$d\`" "$doc" 2>/dev/null ||
    problem "docs/architecture.md: no paragraph for $d (a heading '### \`$d\`' and what the folder holds)"
done

if [ "$errors" -gt 0 ]; then
  echo "check_layers: $errors problem(s) with the layers of docs/architecture.md" >&2
  exit 1
fi
echo "check_layers: every include points down and every folder is explained (${#folders[@]} folders)"
exit 0
