#!/usr/bin/env python3
"""scripts/layer_graph.py [ROOT] [-o FILE.png|FILE.svg|FILE.dot] — the include
graph of tlv by folder, as Graphviz draws it: one box per layer (the folders of
scripts/check_layers.sh, in its order, top layer at the top), one arrow per
pair of folders with an #include between them, labelled with how many. An
arrow that goes up a layer is drawn red (scripts/check_layers.sh makes it a
build error, so the picture of a tree that builds has none). The front end's
includes of the public headers (<tlv/...>) go to the "public API" box; the
library's includes of its own public headers, which declare what it
implements, are left out (but for libtlv-export's, which uses only them). Without -o, the DOT text goes to standard output;
with -o FILE.png or .svg, Graphviz's dot (Debian: graphviz) draws it."""
import os
import re
import subprocess
import sys

# Library folders that are a library of their own over libtlv's public API.
ON_PUBLIC_API = {'libtlv/src/export'}
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]', re.M)


def layers_of(script):
    """LIBRARY_LAYERS and FRONT_LAYERS, bottom first, from check_layers.sh."""
    text = open(script, encoding='utf-8').read()
    def read(name):
        m = re.search(name + r'=\(([^)]*)\)', text)
        return m.group(1).split() if m else []
    return read('LIBRARY_LAYERS'), read('FRONT_LAYERS')


def folder_of(rel, library, front):
    """The layer name of a source file (relative path), or None."""
    if rel.startswith('libtlv/src/'):
        parts = rel.split('/')
        return 'libtlv/src/' + parts[2] if len(parts) == 4 and parts[2] in library else None
    d = os.path.dirname(rel)
    return d if d in front else None


def target_of(inc, src_folder, library, front):
    if inc.startswith('tlv/'):  # libtlv-export is built on the public API only
        return None if src_folder.startswith('libtlv/') and src_folder not in ON_PUBLIC_API \
            else 'public API'
    head = inc.split('/')[0]
    if src_folder.startswith('libtlv/') and head in library:
        return 'libtlv/src/' + head
    d = os.path.dirname(inc)
    return d if d in front else None


def graph(root):
    library, front = layers_of(os.path.join(root, 'scripts/check_layers.sh'))
    inside = ['libtlv/src/' + l for l in library]
    order = [l for l in inside if l not in ON_PUBLIC_API] + ['public API'] + \
        [l for l in inside if l in ON_PUBLIC_API] + front
    rank = {name: i for i, name in enumerate(order)}
    edges = {}
    for top in ('libtlv/src', 'common', 'view', 'cli'):
        for dirpath, _, files in os.walk(os.path.join(root, top)):
            for f in files:
                if not f.endswith(('.c', '.h')):
                    continue
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                src = folder_of(rel, library, front)
                if src is None:
                    continue
                text = open(os.path.join(root, rel), encoding='utf-8', errors='replace').read()
                for inc in INCLUDE.findall(text):
                    dst = target_of(inc, src, library, front)
                    if dst and dst != src:
                        edges[(src, dst)] = edges.get((src, dst), 0) + 1
    out = ['digraph layers {', '  rankdir=TB; nodesep=0.25; ranksep=0.35;',
           '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="DejaVu Sans", fontsize=11];',
           '  edge [fontname="DejaVu Sans", fontsize=9, color="#555555"];']
    present = {n for e in edges for n in e}
    shown = [n for n in reversed(order) if n in present]
    for n in shown:
        fill = '#fdf1d6' if n == 'public API' else ('#e8f5e9' if not n.startswith('libtlv') else '#eef3fb')
        out.append(f'  "{n}" [fillcolor="{fill}"];')
    # One rank per layer, top first, held in place by invisible arrows.
    for a, b in zip(shown, shown[1:]):
        out.append(f'  "{a}" -> "{b}" [style=invis, weight=10];')
    up = 0
    for (a, b), n in sorted(edges.items()):
        if rank[b] > rank[a]:
            up += 1
            out.append(f'  "{a}" -> "{b}" [label="{n}", color=red, fontcolor=red, penwidth=2, constraint=false];')
        else:
            out.append(f'  "{a}" -> "{b}" [label="{n}"];')
    out.append(f'  label="tlv: includes between folders ({len(edges)} arrows, {up} going up)"; labelloc=t;')
    out.append('}')
    return '\n'.join(out) + '\n', up


def main(argv):
    args = [a for a in argv[1:]]
    out = None
    if '-o' in args:
        i = args.index('-o')
        out = args[i + 1]
        del args[i:i + 2]
    root = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), '..')
    dot, up = graph(root)
    if out is None or out.endswith('.dot'):
        (open(out, 'w') if out else sys.stdout).write(dot)
    else:
        fmt = out.rsplit('.', 1)[-1]
        subprocess.run(['dot', '-T' + fmt, '-o', out], input=dot.encode(), check=True)
    return 1 if up else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
