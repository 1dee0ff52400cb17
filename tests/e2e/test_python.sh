#!/usr/bin/env bash
# ctest-label: slow
# test_python.sh — the Python package as users get it, each way its tests
# (python/tests, pytest) run against, from a directory that is not the
# source tree and with no TLV_LIBRARY set: the package finds its libtlv by
# itself, and the tests check which one it found.
#  1. from an installed prefix: cmake --install puts the package next to the
#     library (PREFIX/lib/python3.N/...), PYTHONPATH names that directory;
#  2. from a wheel built by pip (pip wheel --no-index --no-build-isolation:
#     the in-tree backend needs nothing from PyPI) with libtlv bundled,
#     installed into a virtual environment;
#  3. a pure wheel (libtlv=system) finds the libtlv of the tlv command on PATH.
# Skipped under the sanitizers (an instrumented libtlv cannot be loaded into
# python) and when python3's venv, pip or pytest are missing (scripts/setup.sh
# installs python3-venv, python3-pip and python3-pytest; python3-pandas for
# the to_pandas tests, which pytest skips with the reason without it).
. "$(dirname "$0")/lib.sh"

[ "${TLV_SANITIZE:-0}" = 1 ] && { echo "SKIP: sanitizer build"; exit 77; }
[ "${TLV_TSAN:-0}" = 1 ] && { echo "SKIP: ThreadSanitizer build"; exit 77; }
PY=/usr/bin/python3
[ -x "$PY" ] || PY="$(command -v python3)"
"$PY" -c "import pytest, venv, pip" 2>/dev/null ||
  { echo "SKIP: python3 with pytest, venv and pip needed"; exit 77; }
unset TLV_LIBRARY PYTHONPATH

BUILD="$(dirname "$TLV")"
PREFIX="$TMP/prefix"
cd "$TMP" || exit 1

# run_pytest NAME EXPECTED_LIBRARY PYTHON [ENV...]: the package's tests pass,
# all of them ran, and the package loaded EXPECTED_LIBRARY.
run_pytest() {
  local name="$1" expect="$2" python="$3"
  shift 3
  env "$@" PYTHONDONTWRITEBYTECODE=1 TLV_CMD="$PREFIX/bin/tlv" TLV_SOURCE_DIR="$SRC" TLV_EXPECT_LIBRARY="$expect" \
    "$python" -m pytest -q -p no:cacheprovider "$SRC/python/tests" >"$TMP/out" 2>&1
  status=$?
  expect_status 0 "$name: pytest python/tests: $(tail -30 "$TMP/out")"
  expect_grep "$TMP/out" '^[0-9][0-9]* passed' "$name: the tests ran"
  checks=$((checks + 1))
  ! tail -1 "$TMP/out" | grep -q "failed\|error" || fail "$name: $(tail -5 "$TMP/out")"
}

# ---- 1. an installed prefix ---------------------------------------------------------------
run cmake --install "$BUILD" --prefix "$PREFIX"
expect_status 0 "cmake --install"
init="$(find "$PREFIX" -path '*/tlv/__init__.py' | head -1)"
checks=$((checks + 1))
[ -n "$init" ] || fail "cmake --install put no Python package in $PREFIX"
pkg="$(dirname "$init")"
expect_grep "$pkg/_location.py" '^LIBDIR = "' "the installed package says where libtlv is"
checks=$((checks + 1))
[ -f "$pkg/py.typed" ] || fail "no py.typed in the installed package"
lib="$(find "$PREFIX" -name libtlv.so.0 | head -1)"
run_pytest "installed prefix" "$lib" "$PY" PYTHONPATH="$(dirname "$pkg")"
run env PYTHONPATH="$(dirname "$pkg")" "$PY" -c "import tlv; print(tlv.__file__, tlv.library_path())"
expect_contains "$TMP/out" "$pkg/__init__.py $(dirname "$lib")/" "the prefix's package loads the prefix's libtlv"

# ---- 2. a wheel with libtlv bundled ---------------------------------------------------------
before="$(git -C "$SRC" status --porcelain --ignored python 2>/dev/null)"
run "$PY" -m pip wheel --no-index --no-build-isolation --no-deps \
  --config-settings build-dir="$BUILD" -w "$TMP/dist" "$SRC/python"
expect_status 0 "pip wheel ./python"
wheel="$(ls "$TMP"/dist/tlv-*.whl 2>/dev/null | head -1)"
checks=$((checks + 1))
case "$wheel" in
  */tlv-0.1.0-py3-none-linux_*.whl) ;;
  *) fail "the wheel is not a platform wheel of tlv 0.1.0: '$wheel'" ;;
esac
run "$PY" -m zipfile -l "$wheel"
expect_contains "$TMP/out" "tlv/_libtlv/lib/libtlv.so.0" "libtlv bundled"
expect_contains "$TMP/out" "tlv/_libtlv/lib/libtlv-export.so.0" "libtlv-export bundled"
expect_contains "$TMP/out" "tlv/_libtlv/share/tlv/rules/linux_strace.res" "the rules bundled"
expect_contains "$TMP/out" "tlv/py.typed" "py.typed in the wheel"
checks=$((checks + 1))
[ "$(git -C "$SRC" status --porcelain --ignored python 2>/dev/null)" = "$before" ] ||
  fail "building the wheel wrote into the source tree: $(git -C "$SRC" status --porcelain --ignored python)"

run "$PY" -m venv --system-site-packages "$TMP/venv"
expect_status 0 "python3 -m venv"
run "$TMP/venv/bin/pip" install --no-index --no-deps "$wheel"
expect_status 0 "pip install the wheel"
expect_contains "$TMP/out" "Successfully installed tlv-0.1.0" "pip installed the package"
site="$("$TMP/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_path("platlib"))')"
run_pytest "wheel" "$site/tlv/_libtlv/lib/libtlv.so.0" "$TMP/venv/bin/python"

# ---- 3. a pure wheel: the libtlv of the tlv command on PATH ----------------------------------
run "$PY" -m pip wheel --no-index --no-build-isolation --no-deps \
  --config-settings libtlv=system -w "$TMP/pure" "$SRC/python"
expect_status 0 "pip wheel ./python, libtlv=system"
checks=$((checks + 1))
[ -f "$TMP/pure/tlv-0.1.0-py3-none-any.whl" ] || fail "no pure wheel: $(ls "$TMP/pure")"
"$PY" -m venv --system-site-packages "$TMP/venv2" >/dev/null 2>&1
run "$TMP/venv2/bin/pip" install --no-index --no-deps "$TMP/pure/tlv-0.1.0-py3-none-any.whl"
expect_status 0 "pip install the pure wheel"
run env PATH="$PREFIX/bin:$PATH" "$TMP/venv2/bin/python" -c \
  "import os, tlv; print(os.path.realpath(tlv.library_path()))"
expect_status 0 "the pure wheel imports"
expect_line "$TMP/out" "$(readlink -f "$lib")" "the pure wheel loads the libtlv next to the tlv command"
run env PATH=/usr/bin:/bin "$TMP/venv2/bin/python" -c "import tlv"
if [ "$status" -ne 0 ]; then # unless one is installed system-wide
  expect_contains "$TMP/err" "tlv.errors.LibraryError: libtlv not found: install tlv" "no libtlv: said how to get one"
fi

finish
