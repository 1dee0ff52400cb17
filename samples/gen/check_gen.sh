#!/bin/sh
# check_gen.sh [TLV_GEN] — hand-run sanity checks of the trace generator (not
# part of ctest): exact line counts, determinism, option errors, the committed
# .res files, per-processor time order, trace consistency as the asp/fmp
# conversion rules would see it (check_trace.awk), and how many lines each
# corpus rule matches compared with the real TOPPERS logs of the corpus.
#
# TLV_GEN defaults to build/tlv-gen, else the generator is compiled into a
# temporary directory.  TLV_CORPUS overrides ../shared/corpus/tlv-2.0.1.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
corpus=${TLV_CORPUS:-$root/../shared/corpus/tlv-2.0.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
failures=0

pass() { printf 'ok    %s\n' "$1"; }
fail() { printf 'FAIL  %s\n' "$1"; failures=$((failures + 1)); }
check() { name=$1; shift; if "$@" >"$tmp/out" 2>&1; then pass "$name"; else fail "$name"; sed 's/^/      /' "$tmp/out"; fi; }

gen=${1:-}
if [ -z "$gen" ] && [ -x "$root/build/tlv-gen" ]; then gen=$root/build/tlv-gen; fi
if [ -z "$gen" ]; then
    gen=$tmp/tlv-gen
    gcc -std=c11 -Wall -Wextra -Werror -O2 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
        "$here/tlv_gen.c" -o "$gen"
fi
echo "generator: $gen"

# ---- exact counts, determinism, options
lines_are() { [ "$("$gen" "$@" | wc -l)" -eq "$n" ]; }
for k in asp fmp; do
    for n in 0 1 7 1000 54321; do check "$k: --lines $n gives $n lines" lines_are --kernel "$k" --lines "$n"; done
done
same_twice() { "$gen" "$@" >"$tmp/a"; "$gen" "$@" >"$tmp/b"; cmp -s "$tmp/a" "$tmp/b"; }
seeds_differ() { "$gen" "$@" --seed 1 >"$tmp/a"; "$gen" "$@" --seed 2 >"$tmp/b"; ! cmp -s "$tmp/a" "$tmp/b"; }
file_is_stdout() { "$gen" "$@" >"$tmp/a"; "$gen" "$@" -o "$tmp/b"; cmp -s "$tmp/a" "$tmp/b"; }
crlf_only_adds_cr() { "$gen" "$@" >"$tmp/a"; "$gen" "$@" --crlf | tr -d '\r' >"$tmp/b"; cmp -s "$tmp/a" "$tmp/b"; }
for k in asp fmp; do
    check "$k: same seed, same bytes" same_twice --kernel "$k" --lines 20000 --seed 7
    check "$k: other seed, other bytes" seeds_differ --kernel "$k" --lines 2000
    check "$k: -o FILE equals stdout" file_is_stdout --kernel "$k" --lines 3000
    check "$k: --crlf only adds CR" crlf_only_adds_cr --kernel "$k" --lines 3000
    n=4321; check "$k: --console --lines $n gives $n lines" lines_are --kernel "$k" --console --lines "$n"
done
rejects() { ! "$gen" "$@" >/dev/null 2>&1; }
check "rejects --kernel foo" rejects --kernel foo
check "rejects asp --cpus 2" rejects --cpus 2
check "rejects asp --tasks 2" rejects --tasks 2
check "rejects fmp --cpus 3 --tasks 8" rejects --kernel fmp --cpus 3 --tasks 8
check "rejects --tasks 251" rejects --tasks 251
check "rejects --lines -1" rejects --lines -1
check "samples/gen/asp_gen.res is --emit-res" cmp "$here/asp_gen.res" /dev/stdin <<EOF
$("$gen" --emit-res)
EOF
check "samples/gen/fmp_gen.res is --kernel fmp --emit-res" cmp "$here/fmp_gen.res" /dev/stdin <<EOF
$("$gen" --kernel fmp --emit-res)
EOF

# ---- time order: strictly increasing per processor; FMP not globally sorted
times_ok() {
    awk '{ i = index($0, "]"); t = substr($0, 2, i - 2) + 0; p = 1
           if (substr($0, i + 1, 2) == ":[") { r = substr($0, i + 3); p = substr(r, 1, index(r, "]") - 1) }
           if (seen[p] && t <= last[p]) { print "line " NR ": time " t " after " last[p] " on " p; bad = 1 }
           seen[p] = 1; last[p] = t; if (t < max) inv++; if (t > max) max = t }
         END { printf "%d lines below an earlier time of another processor\n", inv
               if (want_inv && !inv) bad = 1; exit bad }' want_inv="$2" "$1"
}

# ---- consistency with the rules, per configuration
consistent() {
    opts=$1
    # shellcheck disable=SC2086
    "$gen" $opts --emit-res >"$tmp/res"
    # shellcheck disable=SC2086
    "$gen" $opts --lines 60000 >"$tmp/log"
    case $opts in *fmp*) inv=1 ;; *) inv=0 ;; esac
    case $opts in *"--cpus 1"*) inv=0 ;; esac
    times_ok "$tmp/log" "$inv" || return 1
    sort -s -n -t'[' -k2,2 "$tmp/log" >"$tmp/sorted"
    awk -f "$here/check_trace.awk" "$tmp/res" "$tmp/sorted"
}
for opts in "--kernel asp" "--kernel asp --console" "--kernel fmp --console" \
            "--kernel asp --seed 3 --tasks 3" "--kernel asp --seed 4 --tasks 12" \
            "--kernel asp --seed 5 --tasks 250" "--kernel fmp" "--kernel fmp --seed 9 --cpus 1" \
            "--kernel fmp --seed 11 --cpus 3 --tasks 15" "--kernel fmp --seed 12 --cpus 8 --tasks 24" \
            "--kernel fmp --seed 13 --cpus 4 --tasks 250"; do
    check "consistent: $opts" consistent "$opts"
    sed 's/^/      /' "$tmp/out"
done
many_seeds() {
    for s in $(seq 100 130); do consistent "--kernel $1 --seed $s" >/dev/null || { echo "seed $s"; return 1; }; done
}
check "asp consistent for seeds 100..130" many_seeds asp
check "fmp consistent for seeds 100..130" many_seeds fmp

# ---- rule matches compared with the real logs
rule_table() {
    kernel=$1; shift
    "$root/tests/bench/cnv_regexes.sh" "$kernel" "$corpus/rules/$kernel.cnv" >"$tmp/pat"
    "$gen" --kernel "$kernel" --console --lines 100000 >"$tmp/gen.log"   # as real logs are
    files="$tmp/gen.log"
    for real in "$@"; do tr -d '\r' <"$corpus/logs/$real" >"$tmp/$(basename "$real")"; files="$files $tmp/$(basename "$real")"; done
    printf '%-58s' "rule ($kernel.cnv), % of lines matching"
    for f in $files; do printf ' %14.14s' "$(basename "$f" .log)"; done
    echo
    while IFS= read -r pat; do
        printf '%s\n' "$pat" >"$tmp/one"
        label=$(printf '%s' "$pat" | sed 's/^\\\[(?<time>\\d+)\\\]//; s/^:\\\[(?<pid>\\d+)\\\]://')
        printf '%-58.58s' "$label"
        for f in $files; do
            printf ' %13.2f%%' "$(pcre2grep -c -f "$tmp/one" "$f" | awk -v t="$(wc -l <"$f")" '{ print 100 * $1 / t }')"
        done
        echo
    done <"$tmp/pat"
    printf '%-58s' "UNMATCHED (no rule)"
    for f in $files; do
        printf ' %13.2f%%' "$(pcre2grep -c -v -f "$tmp/pat" "$f" | awk -v t="$(wc -l <"$f")" '{ print 100 * $1 / t }')"
    done
    echo
}
if [ -d "$corpus" ]; then
    rule_table asp asp/asp_short.log asp/asp_app.log asp/asp_long.log
    rule_table fmp fmp/fmp_short.log fmp/fmp_app.log
else
    echo "note: no corpus at $corpus; rule match table skipped"
fi

# ---- speed
start=$(date +%s%N)
"$gen" --lines 1000000 -o "$tmp/big.log"
end=$(date +%s%N)
ms=$(((end - start) / 1000000))
if [ "$ms" -lt 1000 ]; then pass "1,000,000 asp lines in $ms ms"; else fail "1,000,000 asp lines in $ms ms (goal < 1000)"; fi

echo
if [ "$failures" -eq 0 ]; then echo "all checks passed"; else echo "$failures check(s) failed"; fi
[ "$failures" -eq 0 ]
