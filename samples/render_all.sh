#!/usr/bin/env bash
# samples/render_all.sh — renders every bundled sample with its rule set into
# the PNG next to it, and records in samples/render.manifest what a later run
# must reproduce:
#
#   samples/render_all.sh            regenerate the PNGs and the manifest
#   samples/render_all.sh --check    render into a temporary directory and
#                                    compare with the manifest (the e2e test)
#
# TLV=path/to/tlv picks the binary (default build/tlv).
#
# What "current" means: the shapes (`tlv shapes` output, which depends only
# on the log and the rules) must match their checksum everywhere; the PNG
# bytes must match only on a machine whose fonts are the ones recorded in the
# manifest (text is drawn with whatever font fontconfig finds, so pixels
# differ between font versions). Elsewhere --check only makes sure each
# sample still renders.
set -euo pipefail
cd "$(dirname "$0")/.."
TLV="${TLV:-build/tlv}"
MANIFEST=samples/render.manifest

# name | -R directory (or -) | resource file | log | drawing options | image size
SAMPLES=(
  "asp/sample|-|samples/asp/sample.res|samples/asp/sample.log||1600x900"
  "asp/tour|-|samples/asp/tour.res|samples/asp/tour.log||1600x900"
  "fmp/sample|-|samples/fmp/sample.res|samples/fmp/sample.log||1600x900"
  "fmp/sample-per-cpu|-|samples/fmp/sample.res|samples/fmp/sample.log|--per-cpu|1600x900"
  "linux/sample|-|samples/linux/sample.res|samples/linux/sample.log||1600x900"
  "linux/strace/xz|-|linux_strace.res|samples/linux/strace/xz.log||1600x900"
  "linux/strace/make|-|linux_strace.res|samples/linux/strace/make.log||1600x900"
  "linux/strace/heap|-|linux_strace.res|samples/linux/strace/heap.log||1600x900"
  "linux/sched/xz|-|linux_sched.res|samples/linux/sched/xz.log||1600x900"
  "linux/sched/xz-trace-cmd|-|linux_sched.res|samples/linux/sched/xz-trace-cmd.log||1600x900"
  "linux/sched/make|-|linux_sched.res|samples/linux/sched/make.log||1600x900"
  "linux/sched/heap|-|linux_sched.res|samples/linux/sched/heap.log||1600x900"
  "linux/server/strace|-|linux_strace.res|samples/linux/server/strace.log||1600x900"
  "linux/server/sched|-|linux_sched.res|samples/linux/server/sched.log||1600x900"
  "linux/server/sched-lost|-|linux_sched.res|samples/linux/server/sched-lost.log||1600x900"
  "linux/server/heap|-|linux_heap.res|samples/linux/server/heap.log||1600x900"
  "linux/calls/xz|-|linux_calls.res|samples/linux/calls/xz.log||1600x900"
  "linux/calls/make|-|linux_calls.res|samples/linux/calls/make.log||1600x900"
  "linux/calls/heap|-|linux_calls.res|samples/linux/calls/heap.log||1600x900"
  "linux/calls/heap-zoom|-|linux_calls.res|samples/linux/calls/heap.log|--from 1778148200000 --to 1778148230000|1600x900"
  "linux/heap/xz|-|linux_heap.res|samples/linux/heap/xz.log||1600x900"
  "linux/heap/make|-|linux_heap.res|samples/linux/heap/make.log||1600x900"
  "linux/heap/heap|-|linux_heap.res|samples/linux/heap/heap.log||1600x900"
  "tutorial/nrtos|samples/tutorial|samples/tutorial/nrtos.res|samples/tutorial/nrtos.log||1200x500"
)

# The fonts text is drawn with, as fontconfig resolves them, and the library
# versions that rasterize them: PNG bytes are comparable only when this is equal.
font_fingerprint() {
  if ! command -v fc-match >/dev/null; then
    echo "unknown"
    return
  fi
  local files
  files="$(fc-match -f '%{file}\n' sans-serif; fc-match -f '%{file}\n' 'sans-serif:lang=ja')"
  {
    echo "$files"
    # shellcheck disable=SC2086
    sha256sum $files 2>/dev/null | cut -d' ' -f1
    pkg-config --modversion freetype2 SDL2_ttf 2>/dev/null || true
  } | sha256sum | cut -c1-16
}

sum() { sha256sum "$1" | cut -c1-16; }

# render NAME RDIR RES LOG OPTS SIZE OUTDIR: writes OUTDIR/NAME.png and NAME.jsonl.
render() {
  local name=$1 rdir=$2 res=$3 log=$4 opts=$5 size=$6 out=$7
  local rflag=()
  [ "$rdir" = "-" ] || rflag=(-R "$rdir")
  mkdir -p "$out/$(dirname "$name")"
  # shellcheck disable=SC2086
  "$TLV" render -q "${rflag[@]}" -r "$res" -o "$out/$name.png" --size "$size" $opts "$log"
  # The shapes do not depend on the range drawn (--from/--to are render's own).
  local shape_opts
  shape_opts="$(echo "$opts" | sed -E 's/--(from|to) [^ ]+//g')"
  # shellcheck disable=SC2086
  "$TLV" shapes "${rflag[@]}" -r "$res" $shape_opts "$log" >"$out/$name.jsonl"
}

fonts="$(font_fingerprint)"

if [ "${1:-}" = "--check" ]; then
  tmp="$(mktemp -d)"
  trap 'rm -rf "$tmp"' EXIT
  recorded_fonts="$(awk '$1 == "fonts" { print $2 }' "$MANIFEST")"
  failed=0
  for s in "${SAMPLES[@]}"; do
    IFS='|' read -r name rdir res log opts size <<<"$s"
    if ! render "$name" "$rdir" "$res" "$log" "$opts" "$size" "$tmp"; then
      echo "render_all: $name does not render" >&2
      failed=1
      continue
    fi
    read -r _ want_png want_shapes < <(awk -v n="$name" '$1 == n' "$MANIFEST") || true
    if [ "$(sum "$tmp/$name.jsonl")" != "${want_shapes:-}" ]; then
      echo "render_all: the shapes of $name changed: run samples/render_all.sh and commit the result" >&2
      failed=1
    elif [ "$fonts" = "$recorded_fonts" ] && ! cmp -s "$tmp/$name.png" "samples/$name.png"; then
      echo "render_all: samples/$name.png is not what tlv render draws now (same fonts): run samples/render_all.sh" >&2
      failed=1
    fi
  done
  if [ "$fonts" != "$recorded_fonts" ]; then
    echo "render_all: fonts differ from the manifest's ($fonts, recorded $recorded_fonts): PNG bytes not compared"
  fi
  exit $failed
fi

{
  echo "# samples/render.manifest — written by samples/render_all.sh; checked by tests/e2e/test_sample_images.sh"
  echo "# name  png-sha256/16  shapes-sha256/16"
  echo "fonts $fonts"
} >"$MANIFEST.tmp"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for s in "${SAMPLES[@]}"; do
  IFS='|' read -r name rdir res log opts size <<<"$s"
  render "$name" "$rdir" "$res" "$log" "$opts" "$size" "$tmp"
  cp "$tmp/$name.png" "samples/$name.png"
  echo "$name $(sum "samples/$name.png") $(sum "$tmp/$name.jsonl")" >>"$MANIFEST.tmp"
  echo "render_all: samples/$name.png"
done
mv "$MANIFEST.tmp" "$MANIFEST"
