#!/usr/bin/env bash
# test_python.sh — the Python package as an analyst gets it: installs the
# build into a temporary prefix, installs python/ with pip into a virtual
# environment (no package index: the in-tree build backend needs nothing),
# and runs its pytest tests against the installed libtlv and tlv command.
# Skipped under the sanitizers (an instrumented libtlv cannot be loaded into
# python) and when python3's venv or pytest are missing (scripts/setup.sh
# installs python3-venv and python3-pytest).
. "$(dirname "$0")/lib.sh"

[ "${TLV_SANITIZE:-0}" = 1 ] && { echo "SKIP: sanitizer build"; exit 77; }
[ "${TLV_TSAN:-0}" = 1 ] && { echo "SKIP: ThreadSanitizer build"; exit 77; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY="$(command -v python3)"
"$PY" -c "import pytest, venv" 2>/dev/null || { echo "SKIP: python3 with pytest and venv needed"; exit 77; }

BUILD="$(dirname "$TLV")"
PREFIX="$TMP/prefix"
run cmake --install "$BUILD" --prefix "$PREFIX"
expect_status 0 "cmake --install"
lib="$(find "$PREFIX" -name libtlv.so.0 | head -1)"

run "$PY" -m venv --system-site-packages "$TMP/venv"
expect_status 0 "python3 -m venv"
cp -r "$SRC/python" "$TMP/python" # pip builds in the tree: keep the source clean
run "$TMP/venv/bin/pip" install --no-index --no-cache-dir "$TMP/python"
expect_status 0 "pip install ./python"
expect_contains "$TMP/out" "Successfully installed tlv-0.1.0" "pip installed the package"

# From another directory, so that the installed package is the one imported.
cd "$TMP" || exit 1
TLV_LIBRARY="$lib" TLV_CMD="$PREFIX/bin/tlv" TLV_SOURCE_DIR="$SRC" \
  "$TMP/venv/bin/python" -m pytest -q -p no:cacheprovider "$SRC/python/tests" >"$TMP/out" 2>&1
status=$?
expect_status 0 "pytest python/tests: $(tail -30 "$TMP/out")"
expect_contains "$TMP/out" "9 passed" "every test ran"
export TLV_LIBRARY="$lib"
run "$TMP/venv/bin/python" -c "import tlv, os; print(os.path.dirname(tlv.__file__))"
expect_contains "$TMP/out" "$TMP/venv/" "the package imported is the pip-installed one"

finish
