#!/usr/bin/env python3
# check-chart-layers.py SRC_CHARTS_DIR [SRC_CORE_DIR [SRC_APP_DIR…]]
# check-chart-layers.py --self-test
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
# higher one, and the files must not include each other in a cycle. The
# same goes for calls: a file calls functions of its own layer or a lower
# one, and no two files call each other, directly or round a longer loop
# (STYLE.md: split files do not call each other back and forth). With
# SRC_CORE_DIR, the files of src/core are held to the last rule too, and
# so are those of each further folder (src/app: the window, its pages and
# actions, the rows and the job list call down, never round a circle).
#
# Calls are found by a plain scan of the C text, without a preprocessor:
# comments, strings and preprocessor lines are blanked; a definition is a
# `name (…) {` at the top level; a call is an identifier followed by `(`
# inside a body, not after `.` or `->`. An identifier a file defines itself
# (static or not) is its own; any other that some file defines without
# `static` is a call into that file. Prints TAP; --self-test runs the
# checks on small generated trees and fails unless they catch what is
# planted there.

import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tempfile

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
IDENT_CALL = re.compile(r'(?<![\w.>])([A-Za-z_]\w*)\s*\(')
NOT_CALLS = {'if', 'for', 'while', 'switch', 'return', 'sizeof', 'do',
             'case', 'else', 'defined', '__attribute__', 'typeof'}


def layer_of(name):
    for rank, (layer, patterns) in enumerate(LAYERS):
        if any(fnmatch.fnmatch(name, p) for p in patterns):
            return rank, layer
    return None, None


def unit(name):
    """A file and its header are one unit (cm-chart-kit.c and
    cm-chart-kit.h; a -private.h belongs to its .c)."""
    for suffix in ('-private.h', '.h.in', '.h', '.c'):
        if name.endswith(suffix):
            return name[:-len(suffix)]
    return name


def blank(text):
    """The C text with comments, string and character literals and
    preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in ' \t':
            out.append(c)
            i += 1
            continue
        if line_start and c == '#':
            # A preprocessor line, with its continuations.
            while i < n and text[i] != '\n':
                if text[i] == '\\' and i + 1 < n and text[i + 1] == '\n':
                    out.append(' \n')
                    i += 2
                    continue
                out.append(' ')
                i += 1
            continue
        line_start = False
        if text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:end]))
            i = end
        elif text.startswith('//', i):
            end = text.find('\n', i)
            end = n if end < 0 else end
            out.append(' ' * (end - i))
            i = end
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == '\\' else 1
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j]) + c)
            i = j + 1
        else:
            if c == '\n':
                line_start = True
            out.append(c)
            i += 1
    return ''.join(out)


def scan(text):
    """(definitions, calls) of one C file: definitions maps each function
    the file defines to whether it is static; calls is the set of
    identifiers called inside its bodies."""
    code = blank(text)
    defs, calls = {}, set()
    depth, chunk_start, body_start = 0, 0, None
    for i, c in enumerate(code):
        if c == '{':
            if depth == 0:
                head = code[chunk_start:i]
                m = re.search(r'([A-Za-z_]\w*)\s*\(', head)
                if m and re.search(r'\)\s*$', head) and '=' not in head[:m.start()]:
                    defs[m.group(1)] = re.search(r'\bstatic\b', head[:m.start()]) is not None
                    body_start = i
                else:
                    body_start = None
            depth += 1
        elif c == '}':
            depth -= 1
            if depth == 0:
                if body_start is not None:
                    for name in IDENT_CALL.findall(code[body_start:i]):
                        if name not in NOT_CALLS:
                            calls.add(name)
                body_start = None
                chunk_start = i + 1
        elif c == ';' and depth == 0:
            chunk_start = i + 1
    return defs, calls


def call_graph(directory, files):
    """Which unit calls which, with one called function per arrow to
    name in messages."""
    scanned = {}
    for name in files:
        if name.endswith('.c'):
            with open(os.path.join(directory, name), encoding='utf-8') as f:
                scanned[name] = scan(f.read())
    owner = {}
    for name, (defs, _) in scanned.items():
        for func, is_static in defs.items():
            if not is_static:
                owner[func] = name
    graph = {}
    for name, (defs, calls) in scanned.items():
        arrows = graph.setdefault(name, {})
        for func in sorted(calls):
            if func in defs or func not in owner or owner[func] == name:
                continue
            arrows.setdefault(owner[func], func)
    return graph


def find_cycles(graph):
    """Every strongly connected set of more than one node, as a path
    round it."""
    index, low, stack, on_stack, cycles = {}, {}, [], set(), []

    def strongconnect(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            strongconnect(v)
    return cycles


def describe_cycle(graph, members, verb):
    # Walk from the first member along arrows that stay inside the set.
    inside = set(members)
    path = [members[0]]
    while True:
        here = path[-1]
        nxt = next((w for w in sorted(graph.get(here, ())) if w in inside
                    and (w == members[0] or w not in path)), None)
        if nxt is None or nxt == members[0]:
            if nxt is not None:
                path.append(nxt)
            break
        path.append(nxt)
    steps = []
    for a, b in zip(path, path[1:]):
        label = graph[a][b]
        steps.append(f'{a} -> {b}' + (f' ({label})' if isinstance(label, str) else ''))
    return f'{verb} cycle: ' + ', '.join(steps)


def check(charts_dir, core_dir=None, *more_dirs):
    files = sorted(f for f in os.listdir(charts_dir)
                   if f.startswith('cm-chart') and
                   (f.endswith('.c') or f.endswith('.h') or f.endswith('.h.in')))
    includes = {}
    for name in files:
        with open(os.path.join(charts_dir, name), encoding='utf-8') as f:
            found = [GENERATED.get(h, h) for h in INCLUDE.findall(f.read())]
        includes[name] = [h for h in found if h in files]

    results = []

    layered = []
    for name in files:
        rank, layer = layer_of(name)
        if rank is None:
            layered.append(f'{name} is in no layer: add it to LAYERS in {sys.argv[0]}')
            continue
        for header in includes[name]:
            other_rank, other = layer_of(header)
            if other_rank is not None and other_rank > rank:
                layered.append(f'{name} ({layer}) includes {header} ({other}), a higher layer')
    results.append((layered, f'{len(files)} chart files include only their own layer or lower'))

    include_graph = {}
    for name in files:
        include_graph.setdefault(unit(name), {}).update(
            (unit(h), True) for h in includes[name] if unit(h) != unit(name))
    results.append(([describe_cycle(include_graph, c, 'include') for c in find_cycles(include_graph)],
                     'no include cycle between chart files'))

    calls = call_graph(charts_dir, files)
    upward = []
    for name in sorted(calls):
        rank, layer = layer_of(name)
        for callee, func in sorted(calls[name].items()):
            other_rank, other = layer_of(callee)
            if rank is not None and other_rank is not None and other_rank > rank:
                upward.append(f'{name} ({layer}) calls {func} of {callee} ({other}), a higher layer')
    n_arrows = sum(len(a) for a in calls.values())
    results.append((upward, f'{n_arrows} calls between chart files go to their own layer or lower'))
    results.append(([describe_cycle(calls, c, 'call') for c in find_cycles(calls)],
                     'no call cycle between chart files'))

    for folder, what in [(core_dir, 'core')] + [(d, os.path.basename(os.path.normpath(d))) for d in more_dirs]:
        if folder is None:
            continue
        folder_files = sorted(f for f in os.listdir(folder) if f.endswith('.c'))
        folder_calls = call_graph(folder, folder_files)
        results.append(([describe_cycle(folder_calls, c, 'call') for c in find_cycles(folder_calls)],
                         f'no call cycle between the {len(folder_files)} {what} files'))

    print(f'1..{len(results)}')
    for number, (problems, title) in enumerate(results, 1):
        for p in problems:
            print('# ' + p)
        print(('not ok' if problems else 'ok') + f' {number} - {title}')
    return 1 if any(problems for problems, _ in results) else 0


# --self-test: each case is a small tree and the test numbers that must
# fail on it (none for the clean tree).
SELF_TESTS = [
    ('clean', {
        'cm-chart-kit.c': 'int\ncm_chart_kit_width (void)\n{\n  return 1;\n}\n',
        'cm-chart-layout-a.c': '#include "cm-chart-kit.h"\nint\ncm_a (void)\n{\n'
                               '  /* cm_chart_kit_helper () */\n  return cm_chart_kit_width ();\n}\n',
        'cm-chart-kit.h': 'int cm_chart_kit_width (void);\n',
        'cm-chart.c': 'static int helper (void) { return cm_a (); }\n'
                      'int\ncm_chart_draw (void)\n{\n  return helper () + s.cm_b (1);\n}\n',
    }, set()),
    ('up-include', {
        'cm-chart-kit.c': '#include "cm-chart.h"\n',
        'cm-chart.h': 'void cm_chart_draw (void);\n',
    }, {1}),
    ('include-cycle', {
        'cm-chart-kit-a.c': '#include "cm-chart-kit-b.h"\n',
        'cm-chart-kit-b.c': '#include "cm-chart-kit-a.h"\n',
        'cm-chart-kit-a.h': '', 'cm-chart-kit-b.h': '',
    }, {2}),
    ('up-call', {
        'cm-chart-kit.c': 'void\ncm_chart_kit_paint (void)\n{\n  cm_chart_draw ();\n}\n',
        'cm-chart.c': 'void\ncm_chart_draw (void)\n{\n}\n',
    }, {3}),
    ('call-cycle', {
        'cm-chart-kit.c': 'void\ncm_chart_kit_a (int n)\n{\n  if (n) cm_chart_kit_b (n - 1);\n}\n',
        'cm-chart-kit-thresholds.c': 'static void\nhelper (int n)\n{\n  cm_chart_kit_a (n);\n}\n'
                                     'void\ncm_chart_kit_b (int n)\n{\n  helper (n);\n}\n',
    }, {4}),
    ('core-cycle', {
        'cm-chart.c': '',
        '../core/cm-engine.c': 'void\ncm_engine_run (void)\n{\n  cm_engine_fill ();\n}\n'
                               'void\ncm_engine_step (void)\n{\n}\n',
        '../core/cm-engine-patterns.c': 'void\ncm_engine_fill (void)\n{\n  cm_engine_step ();\n}\n',
    }, {5}),
]


def self_test():
    print(f'1..{len(SELF_TESTS)}')
    failed = False
    for number, (name, tree, expected) in enumerate(SELF_TESTS, 1):
        top = tempfile.mkdtemp(prefix='chart-layers-')
        try:
            charts = os.path.join(top, 'src', 'charts')
            core = os.path.join(top, 'src', 'core')
            os.makedirs(charts)
            os.makedirs(core)
            for path, text in tree.items():
                with open(os.path.join(charts, path), 'w', encoding='utf-8') as f:
                    f.write(text)
            run = subprocess.run([sys.executable, os.path.abspath(__file__), charts, core],
                                 capture_output=True, text=True, check=False)
        finally:
            shutil.rmtree(top)
        failing = {int(m) for m in re.findall(r'^not ok (\d+)', run.stdout, re.MULTILINE)}
        good = failing == expected and (run.returncode != 0) == bool(expected)
        failed |= not good
        for line in run.stdout.splitlines():
            print('#   ' + line)
        print(('ok' if good else 'not ok') +
              f' {number} - {name}: checks {sorted(expected) or "none"} fail, and only they')
    return 1 if failed else 0


def main():
    if sys.argv[1:] == ['--self-test']:
        return self_test()
    return check(*sys.argv[1:])


if __name__ == '__main__':
    sys.exit(main())
