#!/usr/bin/env bash
# ctest-label: slow
# test_oom_ulimit.sh — running out of memory for real (issue 19.0): every
# command on a generated 50,000-line log under `ulimit -v` caps from 1 MB
# above what the program needs to start up to enough for the whole run. At
# each cap a run either succeeds with exactly the output of an unlimited
# run, or exits 2 with "tlv: out of memory while ..." naming the log (or the
# output file it could not open), leaving no output file and no temporary
# file; at the lowest cap every command must fail so. No crash, no other
# status, no silent partial output. Skipped under the sanitizers (ASan
# reserves terabytes of address space for its shadow).
source "$(dirname "$0")/lib.sh"
[ "${TLV_SANITIZE:-0}" = 1 ] && { echo "SKIP: ulimit -v and AddressSanitizer do not mix"; exit 77; }
GEN="$(dirname "$TLV")/tlv-gen"
[ -x "$GEN" ] || { echo "SKIP: tlv-gen not built"; exit 77; }
RES="$SRC/samples/asp/sample.res"
export SDL_VIDEODRIVER=dummy SDL_RENDER_DRIVER=software SDL_AUDIODRIVER=dummy
cd "$TMP" || exit 1
"$GEN" --lines 50000 -o gen.log
printf 'wait 1\ndump-state out\nquit\n' >view.script

# What each command is run as; OUT is its output file.
argv_of() {
  case "$1" in
    convert) echo "$TLV convert -q -r $RES -o out gen.log" ;;
    shapes) echo "$TLV shapes -r $RES -o out gen.log" ;;
    render) echo "$TLV render -q -r $RES --size 400x300 -o out gen.log" ;;
    export) echo "$TLV export -r $RES -o out gen.log" ;;
    export-sqlite) echo "$TLV export -f sqlite -r $RES -o out gen.log" ;;
    stats) echo "$TLV stats -r $RES -o out gen.log" ;;
    query) echo "$TLV query -f csv -r $RES gen.log SQL" ;;
    view) echo "$TLV view --no-session --script view.script -r $RES gen.log" ;;
  esac
}
# run_capped CAP_KB CMD: runs CMD's command line under the cap; status in $status.
run_capped() {
  local argv=() w
  for w in $(argv_of "$2"); do
    [ "$w" = SQL ] && w="select rule, count(*) from intervals group by rule order by 1"
    argv+=("$w")
  done
  rm -f out out.tmp.* out-journal
  # The time limit catches a hang; it is far above a run's time (about a
  # second) so that a loaded machine cannot trip it.
  if [ "$1" = 0 ]; then timeout 300 "${argv[@]}" >stdout 2>stderr; else (ulimit -v "$1"; timeout 300 "${argv[@]}") >stdout 2>stderr; fi
  status=$?
}

# The smallest cap (KB) under which `tlv version` starts, to 256 KB.
lo=16384 hi=4194304
while [ $((hi - lo)) -gt 256 ]; do
  mid=$(((lo + hi) / 2))
  if (ulimit -v "$mid"; "$TLV" version) >/dev/null 2>&1; then hi=$mid; else lo=$mid; fi
done
start=$hi
echo "tlv starts under ulimit -v $((start / 1024)) MB"

for c in convert shapes render export export-sqlite stats query view; do
  run_capped 0 "$c"
  [ "$status" = 0 ] || { fail "$c without a cap: status $status: $(head -c 300 stderr)"; continue; }
  cp stdout ref.stdout
  [ -f out ] && cp out ref.out
  [ -f out ] || rm -f ref.out
  for extra in 1 12 32 96 1024; do
    cap=$((start + extra * 1024))
    run_capped "$cap" "$c"
    checks=$((checks + 1))
    what="$c under ulimit -v $((cap / 1024)) MB (start + $extra MB)"
    left=$(ls out.tmp.* out-journal 2>/dev/null)
    [ -z "$left" ] || fail "$what: left behind: $left"
    if [ "$status" = 0 ]; then
      [ "$extra" -gt 1 ] || fail "$what: succeeded at the lowest cap; the test no longer tests a failure"
      cmp -s stdout ref.stdout || fail "$what: exit 0 but the standard output differs"
      [ ! -f ref.out ] || [ "$c" = export-sqlite ] || cmp -s out ref.out || fail "$what: exit 0 but the output differs"
    elif [ "$status" = 2 ]; then
      grep -qE "^tlv( [a-z]+)?: out of memory while .*'(gen\.log|.*sample\.res)'|^tlv: out of memory while opening the output 'out'" stderr ||
        fail "$what: exit 2 without 'out of memory while ... gen.log': $(head -c 400 stderr)"
      [ ! -e out ] || [ "$c" = view ] || fail "$what: exit 2 but the output file was written"
    elif [ "$status" = 124 ]; then
      fail "$what: no end after 300 s (a hang?)"
    else
      fail "$what: exit status $status: $(tail -c 400 stderr)"
    fi
  done
done
finish
