#!/usr/bin/env bash
# scripts/test.sh — installs what is missing, builds, and runs every test
# twice: in the normal build (build/) and in a sanitizer build (build-asan/,
# AddressSanitizer + UndefinedBehaviorSanitizer), then runs each fuzz target
# for 10 s (tests/fuzz/run.sh; skipped with a message without clang). Exits
# non-zero on any failure. Tests that need ../shared/corpus are skipped when
# it is absent.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs="$(nproc)"

echo "== tests (build/)"
(cd build && ctest --output-on-failure -j"$jobs")

echo "== tests under ASan+UBSan (build-asan/)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTLV_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
(cd build-asan && ctest --output-on-failure -j"$jobs")

echo "== fuzzing under ASan+UBSan, 10 s per target (build-fuzz/)"
tests/fuzz/run.sh 10
