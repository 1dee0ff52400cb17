#!/usr/bin/env bash
# cmp_outputs.sh BASE_TLV NEW_TLV [LOG.asp...] — the outputs of two tlv
# binaries compared byte for byte (cmp): tlv shapes (plain, --per-cpu,
# --flows), tlv export (chrome, --per-cpu; csv), tlv stats (text, --json)
# and tlv convert (two threads and one) on every log of the TLV 2.0.1
# corpus with its resource file, the project's samples (asp, fmp and the
# Linux rule sets), and each extra generated ASP log given (with
# samples/gen/asp_gen.res). For a change that must not change any output
# (a faster writer, a new memory layout): build BASE_TLV from main first.
# Prints each difference; exit 0 when none, 1 otherwise, 2 cannot run.
set -uo pipefail
[ $# -ge 2 ] && [ -x "$1" ] && [ -x "$2" ] || { echo "usage: cmp_outputs.sh BASE_TLV NEW_TLV [LOG...]" >&2; exit 2; }
base=$1 new=$2
shift 2
root=$(cd "$(dirname "$0")/../.." && pwd)
corpus=${TLV_CORPUS:-$root/../shared/corpus/tlv-2.0.1}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# A binary with the trace cache (docs/cache.md) writes it on each log's
# first command and reads it on the others: so the outputs compared are
# those of a conversion and of cache hits. In a folder of this run's own.
export XDG_CACHE_HOME="$tmp/cache"
n=0 bad=0

# same RULE-ARGS... LOG: every command and option on one log.
same() {
    local opts
    for opts in "shapes" "shapes --per-cpu" "shapes --flows" "export" "export --per-cpu" \
        "export --format csv" "convert -q" "convert -q --threads 1" "stats" "stats --json"; do
        # shellcheck disable=SC2086
        "$base" $opts "$@" -o "$tmp/base" 2>"$tmp/base.err"; local rb=$?
        # shellcheck disable=SC2086
        "$new" $opts "$@" -o "$tmp/new" 2>"$tmp/new.err"; local rn=$?
        n=$((n + 1))
        if [ "$rb" != "$rn" ] || ! cmp -s "$tmp/base" "$tmp/new" || ! cmp -s "$tmp/base.err" "$tmp/new.err"; then
            echo "DIFFERS: tlv $opts $* (status $rb / $rn)"
            bad=$((bad + 1))
        fi
    done
}

if [ -d "$corpus/logs" ]; then
    for res in "$corpus"/logs/*/*.res; do
        [ -f "${res%.res}.log" ] && same -R "$corpus/rules" -r "$res" "${res%.res}.log"
    done
else
    echo "note: no corpus at $corpus: only the samples"
fi
for res in "$root"/samples/asp/*.res "$root"/samples/fmp/*.res; do
    [ -f "${res%.res}.log" ] && same -r "$res" "${res%.res}.log"
done
for kind in calls heap sched strace; do
    for log in "$root"/samples/linux/"$kind"/*.log; do
        same -R "$root/rules" -r "$root/rules/linux_$kind.res" "$log"
    done
done
for log in "$@"; do
    same -R "$corpus/rules" -r "$root/samples/gen/asp_gen.res" "$log"
done
echo "$n outputs compared, $bad differ"
[ "$bad" = 0 ]
