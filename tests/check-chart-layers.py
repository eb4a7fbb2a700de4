#!/usr/bin/env python3
# check-chart-layers.py SRC_CHARTS_DIR
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# The files of src/charts are layered (docs/architecture.md, "Charts"):
#
#   kit      cm-chart-kit*, cm-chart-kind.h.in   axes, panels, legends, text, colours
#   layouts  cm-chart-layout-*, cm-chart-live.*,  one chart each, and the row type
#            cm-chart-kind-info.h                 of the table
#   table    cm-chart-kinds*                      the table of kinds
#   api      everything else: cm-chart.c, cm-chart-layout.c, cm-chart-capacity.c
#
# A file may include chart headers of its own layer or a lower one, never a
# higher one, and the files must not include each other in a cycle. This
# reads the `#include "…"` lines of src/charts and fails, naming the
# include, when either rule is broken. Prints TAP.

import fnmatch
import os
import re
import sys

LAYERS = [
    ('kit', ['cm-chart-kit*', 'cm-chart-kind.h.in']),
    ('layouts', ['cm-chart-layout-*', 'cm-chart-live.*', 'cm-chart-kind-info.h']),
    ('table', ['cm-chart-kinds*']),
    ('api', ['cm-chart.c', 'cm-chart.h', 'cm-chart-private.h',
             'cm-chart-layout.c', 'cm-chart-layout.h', 'cm-chart-capacity.*']),
]

# Headers that meson.build makes from a template (configure_file).
GENERATED = {
    'cm-chart-kind.h': 'cm-chart-kind.h.in',
    'cm-chart-kinds-table.h': 'cm-chart-kinds-table.h.in',
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.MULTILINE)


def layer_of(name):
    for rank, (layer, patterns) in enumerate(LAYERS):
        if any(fnmatch.fnmatch(name, p) for p in patterns):
            return rank, layer
    return None, None


def main():
    directory = sys.argv[1]
    files = sorted(f for f in os.listdir(directory)
                   if f.startswith('cm-chart') and
                   (f.endswith('.c') or f.endswith('.h') or f.endswith('.h.in')))
    includes = {}
    for name in files:
        with open(os.path.join(directory, name), encoding='utf-8') as f:
            found = [GENERATED.get(h, h) for h in INCLUDE.findall(f.read())]
        includes[name] = [h for h in found if h in files]

    problems = []
    for name in files:
        rank, layer = layer_of(name)
        if rank is None:
            problems.append(f'{name} is in no layer: add it to LAYERS in {sys.argv[0]}')
            continue
        for header in includes[name]:
            other_rank, other = layer_of(header)
            if other_rank is not None and other_rank > rank:
                problems.append(f'{name} ({layer}) includes {header} ({other}), a higher layer')

    # Cycles: a file and its header are one unit (cm-chart-kit.c and
    # cm-chart-kit.h; a -private.h belongs to its .c).
    def unit(name):
        for suffix in ('-private.h', '.h.in', '.h', '.c'):
            if name.endswith(suffix):
                return name[:-len(suffix)]
        return name

    graph = {}
    for name in files:
        graph.setdefault(unit(name), set()).update(
            unit(h) for h in includes[name] if unit(h) != unit(name))

    state = {}

    def visit(node, path):
        state[node] = 'open'
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 'open':
                cycle = path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt]
                problems.append('include cycle: ' + ' -> '.join(cycle))
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 'done'

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])

    print('1..2')
    layered = [p for p in problems if not p.startswith('include cycle')]
    cycles = [p for p in problems if p.startswith('include cycle')]
    for p in layered:
        print('# ' + p)
    print(('not ok' if layered else 'ok') + f' 1 - {len(files)} chart files include only their own layer or lower')
    for p in cycles:
        print('# ' + p)
    print(('not ok' if cycles else 'ok') + ' 2 - no include cycle between chart files')
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
