#!/usr/bin/env bash
# scripts/test.sh — installs what is missing, builds, and runs every test
# three times: in the normal build (build/), in an optimised Release build
# (build-release/, still -Werror; all but the tests labelled slow) and in a
# sanitizer build (build-asan/,
# AddressSanitizer + UndefinedBehaviorSanitizer), then runs each fuzz target
# for 10 s, one per processor at a time (tests/fuzz/run.sh; skipped with a
# message without clang). The
# Python package's pytest tests run inside ctest (tests/e2e/test_python.sh,
# against an installed prefix; skipped in the sanitizer build). Exits
# non-zero on any failure. Tests that need ../shared/corpus are skipped when
# it is absent.
#
#   scripts/test.sh --tsan   only the ThreadSanitizer build (build-tsan/) and
#                            all its tests (over 30 minutes on a loaded
#                            2-core machine, so not part of the full run)
# The full run (CI) builds in build-tsan/ only the tests that run threads
# (the converter's matching thread, the API from several threads, tlv convert's
# writer thread) and runs those under ThreadSanitizer: about two minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
jobs="$(nproc)"

# tsan_tests [TEST...]: the ThreadSanitizer build and its tests (all, or
# only the unit tests named, building only what they need).
tsan_tests() {
  echo "== tests under ThreadSanitizer (build-tsan/${1:+: $*})"
  cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTLV_TSAN=ON >/dev/null
  if [ $# -eq 0 ]; then
    cmake --build build-tsan -j"$jobs" >/dev/null
    (cd build-tsan && ctest --output-on-failure -j"$jobs")
  else
    cmake --build build-tsan -j"$jobs" --target "$@" >/dev/null
    local re
    re="^unit\.($(IFS='|'; echo "$*"))\$"
    (cd build-tsan && ctest --output-on-failure -j"$jobs" -R "$re")
  fi
}
if [ "${1:-}" = "--tsan" ]; then
  tsan_tests
  exit 0
fi

echo "== tests (build/)"
(cd build && ctest --output-on-failure -j"$jobs")

echo "== optimised build (build-release/, Release, -Werror kept on)"
# -O3 runs analyses (maybe-uninitialized, ...) the default build does not: a
# user building a release must not meet a warning-as-error we never saw.
cmake -S . -B build-release -DCMAKE_BUILD_TYPE=Release -DTLV_WERROR=ON >/dev/null
cmake --build build-release -j"$jobs" >/dev/null
# The tests labelled slow (the environment's: allocation failures, a
# terminal, live logs, packaging) ran in build/ and run again under ASan.
(cd build-release && ctest --output-on-failure -j"$jobs" -LE slow)

echo "== tests under ASan+UBSan (build-asan/)"
cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=Debug -DTLV_SANITIZE=ON >/dev/null
cmake --build build-asan -j"$jobs" >/dev/null
(cd build-asan && ctest --output-on-failure -j"$jobs")

tsan_tests test_pipeline test_threads test_shared_rules test_event_writer test_viz_parallel test_store test_cache

echo "== fuzzing under ASan+UBSan, 10 s per target (build-fuzz/)"
tests/fuzz/run.sh 10
