# scripts/rules_without_tid.py — shared by gen_linux_strace.py and
# gen_linux_heap.py: strace and ltrace print a thread id at the head of each
# line only when they follow children (-f). Without it, the one process they
# trace is read by a twin of each rule whose head has no id, as thread 0:
# every ${tid} is 0, a label's "[${tid}]" or "[PID]" is left out (the pid is
# nowhere in the log), and what names a child (${child}) is dropped, since
# the tracer did not follow it (a row would say it lived to the end).
import collections, json
OD = collections.OrderedDict


def _twin(x, head, head_no_tid, unlabel):
    """The twin of a regex or of outputs; an output naming a child is ""."""
    if isinstance(x, str):
        if "${child}" in x:
            return ""
        x = x.replace(head, head_no_tid)
        for text in unlabel:
            x = x.replace(text, "")
        return x.replace("${tid}", "0")
    if isinstance(x, list):
        kept = [_twin(v, head, head_no_tid, unlabel) for v in x]
        return [v for v in kept if v]
    kept = OD((_twin(k, head, head_no_tid, unlabel), _twin(v, head, head_no_tid, unlabel))
              for k, v in x.items())
    return OD((k, v) for k, v in kept.items() if v)


def add_without_tid(rules, head, head_no_tid, unlabel):
    """Adds to `rules` (regex -> outputs) the twin of every rule; a rule
    left with nothing to write (all it wrote named a child) has none, one
    that writes nothing (a line read and left out) keeps writing nothing;
    `unlabel` lists the texts a label loses ("[${tid}]")."""
    for regex, outputs in list(rules.items()):
        if head not in regex:
            continue
        twin = _twin(outputs, head, head_no_tid, unlabel)
        if twin or outputs == "":
            rules[_twin(regex, head, head_no_tid, unlabel)] = twin
