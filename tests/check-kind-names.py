#!/usr/bin/env python3
# check-kind-names.py PROJECT_ROOT
# check-kind-names.py --self-test
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# A kind is a module (docs/architecture.md, "A card job kind"): code names
# it by pointer (&cm_job_kind_verify), never by its name as a string, so
# the compiler checks it and nothing outside the kind asks which kind it
# is. docs/architecture.md holds a table of each kind's own files and its
# document's member, and a table of the shared places that may still
# spell them, each with why. This test reads both and checks them against
# the tree:
#
#   - every pattern of the table matches a file, every kind of the table
#     is a line of the kind table (src/core/cm-job-kinds.c) and the other
#     way round, and each kind's src/core/cm-job-NAME.c is its own;
#   - every shared place exists and still spells each name it lists (an
#     exemption that is no longer needed goes);
#   - a string literal in src/ that is a kind's name or member ("verify",
#     "endurance") stands only in that kind's own files or a shared place
#     that lists it. Comments are not code: they may name kinds.
#
# Prints TAP. --self-test plants a literal in a copy of a small tree and
# fails unless the check catches it.

import fnmatch
import os
import re
import shutil
import sys
import tempfile

DOC = os.path.join('docs', 'architecture.md')
TABLE = os.path.join('src', 'core', 'cm-job-kinds.c')
SOURCE_EXT = ('.c', '.h', '.in')


def table_rows(text, marker):
    """The rows of the Markdown table between <!-- marker --> and its end."""
    start = text.find('<!-- %s -->' % marker)
    end = text.find('<!-- /%s -->' % marker)
    if start < 0 or end < start:
        return None
    rows = []
    for line in text[start:end].splitlines():
        line = line.strip()
        if not line.startswith('|') or set(line) <= set('|- '):
            continue
        cells = [c.strip() for c in line.strip('|').split('|')]
        rows.append(cells)
    return rows[1:]  # the header


def backticked(cell):
    return re.findall(r'`([^`]+)`', cell)


def read_doc(root):
    with open(os.path.join(root, DOC), encoding='utf-8') as f:
        text = f.read()
    kinds = table_rows(text, 'kind-files')
    shared = table_rows(text, 'kind-names-shared')
    if kinds is None or shared is None:
        return None, None
    kind_list = []
    for cells in kinds:
        name, member, files = cells[0], cells[1], cells[2]
        kind_list.append({'name': name, 'member': member or None, 'patterns': backticked(files)})
    shared_list = []
    for cells in shared:
        path = backticked(cells[0])[0]
        names = cells[1].split()
        shared_list.append({'path': path, 'names': names, 'why': cells[2]})
    return kind_list, shared_list


def source_files(root):
    out = []
    for folder, _dirs, files in os.walk(os.path.join(root, 'src')):
        for name in files:
            if name.endswith(SOURCE_EXT):
                out.append(os.path.relpath(os.path.join(folder, name), root))
    return sorted(out)


def string_literals(text):
    """(line, value) of each string literal, outside comments and chars."""
    out = []
    i, n, line = 0, len(text), 1
    while i < n:
        c = text[i]
        if c == '\n':
            line += 1
            i += 1
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            end = n if end < 0 else end + 2
            line += text.count('\n', i, end)
            i = end
        elif text.startswith('//', i):
            end = text.find('\n', i)
            i = n if end < 0 else end
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            if c == '"':
                out.append((line, text[i + 1:j]))
            i = j + 1
        else:
            i += 1
    return out


def own_files(kind, files):
    return {f for f in files if any(fnmatch.fnmatch(f, p) for p in kind['patterns'])}


def table_kinds(root):
    with open(os.path.join(root, TABLE), encoding='utf-8') as f:
        text = f.read()
    body = text[text.find('builtin[]'):]
    body = body[:body.find('};')]
    return re.findall(r'&cm_job_kind_(\w+)', body)


def check(root):
    """A list of (ok, description, problems)."""
    results = []
    kinds, shared = read_doc(root)
    if kinds is None:
        return [(False, 'docs/architecture.md has the kind-files and kind-names-shared tables',
                 ['a table or its end marker is missing'])]
    files = source_files(root)
    every = set(files) | {os.path.relpath(os.path.join(d, f), root)
                          for d, _s, fs in os.walk(root) for f in fs}

    problems = []
    for kind in kinds:
        for pattern in kind['patterns']:
            if not any(fnmatch.fnmatch(f, pattern) for f in every):
                problems.append('%s: %s matches no file' % (kind['name'], pattern))
        job_file = 'src/core/cm-job-%s.c' % kind['name']
        if job_file not in own_files(kind, files):
            problems.append('%s: its %s is not among its own files' % (kind['name'], job_file))
    in_doc = [k['name'] for k in kinds]
    in_table = table_kinds(root)
    for name in in_table:
        if name not in in_doc:
            problems.append('%s is in %s but not in the table of own files' % (name, TABLE))
    for name in in_doc:
        if name not in in_table:
            problems.append('%s is in the table of own files but not in %s' % (name, TABLE))
    results.append((not problems, 'the table of each kind\'s files matches the tree', problems))

    spelled = {}
    for kind in kinds:
        for word in filter(None, (kind['name'], kind['member'])):
            spelled.setdefault(word, set()).update(own_files(kind, files))
    allowed = {}
    for place in shared:
        for name in place['names']:
            allowed.setdefault(place['path'], set()).update(
                spelled if name == 'every' else {name})

    problems = []
    found = {}
    for path in files:
        with open(os.path.join(root, path), encoding='utf-8', errors='replace') as f:
            literals = string_literals(f.read())
        for line, value in literals:
            if value not in spelled:
                continue
            found.setdefault(path, set()).add(value)
            if path in spelled[value] or value in allowed.get(path, ()):
                continue
            problems.append('%s:%d: "%s" outside its kind\'s files: name the kind by pointer '
                            '(&cm_job_kind_NAME, cm_job_kind_NAME.name)' % (path, line, value))
    results.append((not problems, 'kind names and members are spelled only in their own files', problems))

    problems = []
    for place in shared:
        if place['path'] not in files:
            problems.append('%s: no such file' % place['path'])
            continue
        for name in place['names']:
            if name != 'every' and name not in found.get(place['path'], ()):
                problems.append('%s no longer spells "%s": drop it from the table' % (place['path'], name))
    results.append((not problems, 'every shared place still needs its exemption', problems))
    return results


def report(results):
    print('1..%d' % len(results))
    failed = False
    for i, (ok, what, problems) in enumerate(results, 1):
        print('%s %d - %s' % ('ok' if ok else 'not ok', i, what))
        for problem in problems:
            print('# %s' % problem)
        failed = failed or not ok
    return 1 if failed else 0


def self_test():
    """A small tree with one kind, checked clean and then with a planted literal."""
    tmp = tempfile.mkdtemp()
    try:
        def write(path, text):
            path = os.path.join(tmp, path)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
        write(DOC, '<!-- kind-files -->\n| kind | member | files |\n|---|---|---|\n'
                   '| soak | soaking | `src/core/cm-job-soak.c` |\n<!-- /kind-files -->\n'
                   '<!-- kind-names-shared -->\n| file | names | why |\n|---|---|---|\n'
                   '| `src/core/cm-job-kinds.c` | every | the table |\n<!-- /kind-names-shared -->\n')
        write(TABLE, 'static const CmJobKind * const builtin[] = {\n  &cm_job_kind_soak,\n};\n')
        write('src/core/cm-job-soak.c', 'const CmJobKind cm_job_kind_soak = { .name = "soak" };\n')
        write('src/app/cm-page.c', '/* "soak" in a comment is fine */\nstatic int x;\n')
        clean = check(tmp)
        write('src/app/cm-page.c', 'static void f (void) { g_str_equal (k, "soaking"); }\n')
        planted = check(tmp)
        os.remove(os.path.join(tmp, 'src/core/cm-job-soak.c'))
        missing = check(tmp)
    finally:
        shutil.rmtree(tmp)
    results = [
        (all(ok for ok, _w, _p in clean), 'a clean tree passes', [p for _o, _w, ps in clean for p in ps]),
        (not planted[1][0], 'a member spelled in a page fails', []),
        (not missing[0][0], 'a kind whose file is gone fails', []),
    ]
    return report(results)


def main():
    if len(sys.argv) == 2 and sys.argv[1] == '--self-test':
        return self_test()
    if len(sys.argv) != 2:
        print('usage: check-kind-names.py PROJECT_ROOT | --self-test', file=sys.stderr)
        return 2
    return report(check(sys.argv[1]))


if __name__ == '__main__':
    sys.exit(main())
