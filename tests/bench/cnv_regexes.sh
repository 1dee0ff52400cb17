#!/bin/sh
# cnv_regexes.sh TARGET FILE.cnv... — print the rule regexes of one conversion
# target, one per line, as a pcre2grep pattern file (pcre2grep -f).
#
# A .cnv file is "TLV JSON" (docs: spec section 2): a UTF-8 BOM, trailing
# commas and non-JSON escapes such as "\[" may occur.  The regexes are the keys
# of the object TARGET maps to (depth 2); deeper keys are conditions.  Keys are
# un-escaped the way the TLV dialect reads them: \\ \" \/ lose the backslash,
# any other \X is kept as is (so "\[" stays the regex \[ and "\n" stays the
# regex escape \n, which means the same character and keeps one pattern per
# line); \b (JSON backspace) and \uXXXX become the regex escapes \x08, \x{XXXX}.
# POSIX sh + awk only: python is not guaranteed where the benches run.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 TARGET FILE.cnv..." >&2
    exit 2
fi
target=$1
shift
for f in "$@"; do
    [ -r "$f" ] || { echo "$0: cannot read $f" >&2; exit 2; }
done
for f in "$@"; do
    # One record per file: the whole text, newlines kept as spaces.
    tr '\r\n' '  ' <"$f"
    echo
done | awk -v want="$target" '
function unescape(raw,    out, i, n, c, d) {
    out = ""; n = length(raw)
    for (i = 1; i <= n; i++) {
        c = substr(raw, i, 1)
        if (c != "\\" || i == n) { out = out c; continue }
        d = substr(raw, ++i, 1)
        if (d == "\\" || d == "\"" || d == "/") out = out d
        else if (d == "b") out = out "\\x08"
        else if (d == "u") { out = out "\\x{" substr(raw, i + 1, 4) "}"; i += 4 }
        else out = out "\\" d
    }
    return out
}
{
    s = $0; n = length(s); depth = 0; top = ""; found = 0
    for (i = 1; i <= n; i++) {
        c = substr(s, i, 1)
        if (c == "{" || c == "[") { depth++; continue }
        if (c == "}" || c == "]") { depth--; continue }
        if (c != "\"") continue
        # A string: find its closing quote, stepping over escapes.
        j = i + 1
        while (j <= n) {
            d = substr(s, j, 1)
            if (d == "\\") { j += 2; continue }
            if (d == "\"") break
            j++
        }
        raw = substr(s, i + 1, j - i - 1)
        i = j
        # It is a key when the next non-blank character is a colon.
        k = j + 1
        while (k <= n && substr(s, k, 1) ~ /[ \t]/) k++
        if (substr(s, k, 1) != ":") continue
        if (depth == 1) top = raw
        else if (depth == 2 && top == want) { print unescape(raw); found++ }
    }
    total += found
}
END { if (total == 0) { print "cnv_regexes: no rules for target " want > "/dev/stderr"; exit 1 } }
'
