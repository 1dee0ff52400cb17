import json, collections
OD=collections.OrderedDict
rules=OD()
# ltrace -f -ttt -T (seconds since 1970) or -tt (time of day)
for timefmt, T in ((r"(?<s>\d+)\.(?<us>\d{6})", "[${s}${us}]"), (r"(?<clk>\d\d:\d\d:\d\d\.\d{6})", "[$CLOCK{${clk}}]")):
    P = r"^(?<tid>\d+) +" + timefmt + " "
    DUR = r"(?: <(?<ds>\d+)\.(?<dus>\d{6})>)?$"
    def alloc(fn, size, p):
        """a block of `size` bytes at `p` (0x0 / 0: the allocation failed)"""
        return OD([
          ("%s==" % p, T + "T${tid}.failed(%s,%s)" % (fn, size)),
          ("%s!=" % p, [
            T + "T${tid}.alloc(%s,%s,%s)" % (fn, size, p),
            T + "B%s.owner=T${tid}" % p, T + "B%s.size=%s" % (p, size), T + "B%s.by=%s" % (p, fn), T + "B%s.state=live" % p,
            T + "T${tid}.inuse=$CALC{$ATTR{T${tid}.inuse}+%s}" % size,
            T + "T${tid}.blocks=$CALC{$ATTR{T${tid}.blocks}+1}"])])
    def release(p, fn):
        """the block at p is given back: its owner's bytes and blocks go down"""
        known = [T + "$ATTR{B%s.owner}.inuse=$CALC{$ATTR{$ATTR{B%s.owner}.inuse}-$ATTR{B%s.size}}" % (p, p, p),
                 T + "$ATTR{B%s.owner}.blocks=$CALC{$ATTR{$ATTR{B%s.owner}.blocks}-1}" % (p, p),
                 T + "B%s.state=freed" % p, T + "T${tid}.release(%s,%s,$ATTR{B%s.size})" % (fn, p, p)]
        unknown = T + "T${tid}.unknown(%s,%s)" % (fn, p)   # allocated before recording, or inside a library
        # (conditions are tried in order, each after the outputs before it: the
        # one that makes the block freed comes last)
        return OD([("%s==" % p, ""),
                   ("%s!=" % p, OD([
                      ("$EXIST{B%s}==False" % p, unknown),
                      ("$EXIST{B%s}==True" % p, OD([("$ATTR{B%s.state}!=live" % p, unknown), ("$ATTR{B%s.state}==live" % p, known)]))]))])
    def call(fn, a, b, ret):
        if fn == "malloc": return [alloc("malloc", a, ret)]
        if fn == "calloc": return [alloc("calloc", "$CALC{%s*%s}" % (a, b), ret)]
        if fn == "free": return [release(a, "free")]
        # realloc(old, n): a new block replaces the old one (realloc(p, 0) frees p)
        return [OD([("%s==" % a, alloc("realloc", b, ret)),
                    ("%s!=" % a, OD([
                       ("%s==" % ret, OD([("%s==0" % b, release(a, "realloc")), ("%s!=0" % b, T + "T${tid}.failed(realloc,%s)" % b)])),
                       ("%s!=" % ret, [release(a, "realloc"), alloc("realloc", b, ret)])]))])]
    ARGS = {"malloc": r"(?<a>\d+)", "calloc": r"(?<a>\d+), (?<b>\d+)", "free": r"(?:(?<a>0x[0-9a-f]+)|0|\(nil\))", "realloc": r"(?:(?<a>0x[0-9a-f]+)|0|\(nil\)), (?<b>\d+)"}
    for fn, args in ARGS.items():
        rest = {"free": r"<void>"}.get(fn, r"(?:(?<ret>0x[0-9a-f]+)|0|\(nil\))")
        lbl = [OD([("${prog}!=", T + "T${tid}.label=${prog}[${tid}]")])]
        # the whole call on one line
        rules[P + r"(?:(?<prog>[^ ./]+)|[^ ]*?)->%s\(%s\) += %s" % (fn, args, rest) + DUR] = lbl + call(fn, "${a}", "${b}", "${ret}")
        # its first half, when another thread's line came in between: the arguments wait in the thread
        pend = lbl + [T + "T${tid}.pendA=${a}"] + ([T + "T${tid}.pendB=${b}"] if "<b>" in args else [])
        rules[P + r"(?:(?<prog>[^ ./]+)|[^ ]*?)->%s\(%s <unfinished \.\.\.>$" % (fn, args)] = pend
        rules[P + r"<\.\.\. %s resumed> *\) += %s" % (fn, rest) + DUR] = call(fn, "$ATTR{T${tid}.pendA}", "$ATTR{T${tid}.pendB}", "${ret}")
    rules[P + r"\+\+\+ exited \(status (?<status>\d+)\) \+\+\+$"] = T + "T${tid}.exit(${status})"
    rules[P + r"\+\+\+ killed by (?<sig>SIG\w+) \+\+\+$"] = T + "T${tid}.killed(${sig})"
    rules[P + r"--- Called exec\(\) ---$"] = T + "T${tid}.exec()"
    rules[P + r"--- (?<sig>SIG\w+) \((?<what>.*)\) ---$"] = T + "T${tid}.signal(${sig},${what})"
open('rules/linux_heap.cnv','w').write(json.dumps({"linux_heap": rules}, indent=2, ensure_ascii=False) + "\n")
