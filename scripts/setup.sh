#!/usr/bin/env bash
# scripts/setup.sh — installs the Debian packages tlv needs (when missing) and
# builds it into build/. Safe to run again: it installs and rebuilds only what
# is missing or changed.
#
#   scripts/setup.sh              everything the tests need, and build all (CI)
#   scripts/setup.sh --demo       only what building and running tlv needs, and
#                                 build only the tlv command (scripts/demo.sh)
#   scripts/setup.sh --deps-only  only install everything the tests need
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-all}

# Building and running tlv.
PACKAGES=(
  build-essential cmake pkg-config   # compiler and build system
  libpcre2-dev                       # regular expressions (JIT)
  libcjson-dev                       # JSON output
  libsdl2-dev libsdl2-ttf-dev        # drawing (software renderer) and text
  libfontconfig-dev                  # finding fonts
  fonts-noto-cjk fonts-dejavu-core   # a font with Japanese glyphs, and a plain fallback
  libpng-dev                         # writing PNG files
  libsqlite3-dev                     # tlv export --format sqlite, tlv query
  libedit-dev                        # tlv query's shell: line editing, history (BSD, not GPL readline)
)
# Testing it (not needed to build or run tlv).
TEST_PACKAGES=(
  pcre2-utils                        # pcre2grep, the benchmark's baseline
  python3-pytest python3-venv python3-pip  # the Python package's tests (tests/e2e/test_python.sh): from a wheel too
  python3-pandas                     # its to_pandas() (skipped with the reason without it)
  xvfb xauth jq                      # the viewer's tests: a virtual display, reading its state dumps
  clang libclang-rt-14-dev           # libFuzzer and its sanitizer runtimes (tests/fuzz/run.sh)
  strace                             # recording Linux samples (samples/linux/record.sh)
  linux-perf trace-cmd               # recording CPU scheduling (samples/linux/record_sched.sh)
  uftrace                            # recording function calls (samples/linux/record_calls.sh)
  ltrace                             # recording heap use (samples/linux/record_heap.sh)
)
[ "$mode" = --demo ] || PACKAGES+=("${TEST_PACKAGES[@]}")

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
# The Chrome DevTools trace engine, a real consumer of `tlv export --format
# chrome` for tests/e2e/test_chrome.sh, from npm when node and npm are there
# (the test checks the file structurally without it).
engine=build/npm/node_modules/@paulirish/trace_engine
if [ "$mode" != --demo ] && [ ! -f "$engine/package.json" ] && command -v npm >/dev/null; then
  echo "setup: installing @paulirish/trace_engine into build/npm" >&2
  mkdir -p build/npm
  timeout 300 npm install --prefix build/npm --no-audit --no-fund --silent \
    @paulirish/trace_engine@0.0.65 >/dev/null 2>&1 || echo "setup: npm install failed; skipped" >&2
fi
[ "$mode" = --deps-only ] && exit 0

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
if [ "$mode" = --demo ]; then
  cmake --build build -j"$(nproc)" --target tlv >/dev/null
else
  cmake --build build -j"$(nproc)" >/dev/null
fi
echo "setup: built build/tlv" >&2
