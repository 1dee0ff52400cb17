#!/usr/bin/env bash
# scripts/demo.sh — the main job on a bundled sample: installs what is
# missing to build and run tlv (not the test tools), builds only the tlv
# command, converts samples/asp/sample.log with the project's own
# TOPPERS/ASP rules (printing the first events and the summary), then shows
# the timeline: in a window when there is a display, else drawn into a PNG
# whose path is printed.
#
#   scripts/demo.sh            as above
#   scripts/demo.sh --png      always draw the PNG, never open a window
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --demo
res=samples/asp/sample.res
log=samples/asp/sample.log
out="$(mktemp -d)"
build/tlv convert -r "$res" "$log" -o "$out/sample.std"
echo "--- first events of $out/sample.std:"
head -n 12 "$out/sample.std"

if [ "${1:-}" != "--png" ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; } &&
   build/tlv view --help >/dev/null 2>&1; then
  echo "--- opening the timeline (close the window to finish)"
  exec build/tlv view -r "$res" "$log"
fi
build/tlv render -r "$res" "$log" -o "$out/sample.png"
echo "--- the timeline is drawn in $out/sample.png"
