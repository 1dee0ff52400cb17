#!/usr/bin/env bash
# bench_view.sh [BUILD_DIR] [LINES] — whole frames of `tlv view --bench` on a
# generated TOPPERS/FMP log (2 processors, the project's own rules, so no
# corpus is needed) in per-CPU mode at 1920x1080, as a person sees it: the
# CPU-load tracks and the flows' arrows shown, and the same path without
# them as the baseline measured in the same run (legs interleaved). Needs
# xvfb-run; prints tlv's bench lines. The goal: p99 <= 16 ms with the
# tracks and arrows (the CPU time of the viewer's thread is the figure to
# read on a loaded machine; the wall time includes the X server's share).
set -euo pipefail
build="${1:-build}"
lines="${2:-1000000}"
src="$(cd "$(dirname "$0")/../.." && pwd)"
command -v xvfb-run >/dev/null || { echo "bench_view: needs xvfb-run (scripts/setup.sh installs it)" >&2; exit 2; }
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
"$build/tlv-gen" --kernel fmp --lines "$lines" --seed 1 -o "$tmp/fmp.log"
# the generator's resource file names the TLV 2.0.1 rule files; ours are toppers_*
"$build/tlv-gen" --kernel fmp --emit-res |
  sed -e 's/"toppers"/"toppers_common"/' -e 's/"fmp"/"toppers_fmp"/g' \
      -e 's/"fmp_core\([0-9]\)"/"toppers_fmp_core\1"/g' >"$tmp/fmp.res"
echo "tlv view benchmark: $lines generated FMP lines, per-CPU, 1920x1080 (load average $(cut -d' ' -f1-3 /proc/loadavg))"
SDL_VIDEODRIVER=x11 SDL_RENDER_DRIVER=software xvfb-run -a -s "-screen 0 1920x1200x24" \
  "$build/tlv" view -r "$tmp/fmp.res" --per-cpu --no-session --size 1920x1080 --bench "$tmp/fmp.log"
