#!/usr/bin/env python3
# test-flatpak-manifest.py — the Flatpak manifest matches the app it builds,
# asks for no more than the app uses, and pins every source it downloads.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-flatpak-manifest.py [SRCDIR]   (TAP on stdout; stdlib only)

import configparser
import json
import os
import re
import sys

srcdir = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

n = 0
failed = False


def check(what, cond, detail=None):
    global n, failed
    n += 1
    if cond:
        print(f"ok {n} - {what}")
    else:
        failed = True
        print(f"not ok {n} - {what}")
        if detail:
            print(f"# {detail}")
    return cond


def strip_comments(text):
    """Removes /* */ and // comments outside strings, as json-glib (which
    flatpak-builder parses manifests with) allows them."""
    out = []
    i, size = 0, len(text)
    in_string = False
    while i < size:
        c = text[i]
        if in_string:
            out.append(c)
            if c == '\\' and i + 1 < size:
                out.append(text[i + 1])
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
            out.append(c)
        elif text.startswith('/*', i):
            end = text.find('*/', i + 2)
            if end < 0:
                raise ValueError('unterminated comment')
            out.append(' ')
            i = end + 1
        elif text.startswith('//', i):
            end = text.find('\n', i)
            i = size - 1 if end < 0 else end - 1
        else:
            out.append(c)
        i += 1
    return ''.join(out)


def meson_app_id():
    with open(os.path.join(srcdir, 'meson.build'), encoding='utf-8') as f:
        m = re.search(r"^app_id\s*=\s*'([^']+)'", f.read(), re.M)
    return m.group(1) if m else None


def meson_executables():
    names = set()
    for sub in ('src/app/meson.build', 'src/cli/meson.build'):
        path = os.path.join(srcdir, sub)
        if os.path.exists(path):
            with open(path, encoding='utf-8') as f:
                names.update(re.findall(r"executable\s*\(\s*'([^']+)'", f.read()))
    return names


def grep_sources(needle):
    for root, _dirs, files in os.walk(os.path.join(srcdir, 'src')):
        for name in files:
            if name.endswith(('.c', '.h')):
                with open(os.path.join(root, name), encoding='utf-8', errors='replace') as f:
                    if needle in f.read():
                        return True
    return False


manifest_path = os.path.join(srcdir, 'flatpak', 'io.github.cardmark.CardMark.json')
try:
    with open(manifest_path, encoding='utf-8') as f:
        manifest = json.loads(strip_comments(f.read()))
    check('manifest parses as JSON (comments removed)', isinstance(manifest, dict))
except (OSError, ValueError) as e:
    check('manifest parses as JSON (comments removed)', False, str(e))
    print(f"1..{n}")
    sys.exit(1)

app_id = manifest.get('app-id') or manifest.get('id')
check('app-id matches app_id in meson.build', app_id == meson_app_id(),
      f"manifest {app_id!r}, meson.build {meson_app_id()!r}")

desktop_path = os.path.join(srcdir, 'data', 'io.github.cardmark.CardMark.desktop.in')
desktop = configparser.ConfigParser(interpolation=None, strict=False)
desktop.optionxform = str
desktop.read(desktop_path, encoding='utf-8')
check('desktop file is named after the app-id',
      os.path.basename(desktop_path) == f"{app_id}.desktop.in")
check('desktop Icon is the app ID (installed under that name)',
      desktop.get('Desktop Entry', 'Icon', fallback=None) in ('@APP_ID@', app_id))

command = manifest.get('command')
exec_line = desktop.get('Desktop Entry', 'Exec', fallback='')
exec_bin = exec_line.split()[0] if exec_line else None
check('command matches the desktop Exec program', command == exec_bin,
      f"command {command!r}, Exec {exec_bin!r}")
check('command is an executable meson installs', command in meson_executables(),
      f"{command!r} not in {sorted(meson_executables())}")

args = manifest.get('finish-args', [])
check('no network access (--share=network)', '--share=network' not in args)
broad = [a for a in args
         if re.fullmatch(r"--filesystem=(home|host|host-os|host-etc|~)(/?)(:(ro|rw|create))?", a)]
check('no --filesystem=home, host or ~', not broad, f"found {broad}")
check('no --device=all (raw access goes through UDisks)', '--device=all' not in args)
check('no session or system bus wildcard',
      not any(a in ('--socket=session-bus', '--socket=system-bus') for a in args))
uses_udisks = grep_sources('org.freedesktop.UDisks2')
check('src/ talks to org.freedesktop.UDisks2', uses_udisks)
check('finish-args let it talk to UDisks2 on the system bus',
      '--system-talk-name=org.freedesktop.UDisks2' in args)
check('runtime is the GNOME platform with its SDK',
      manifest.get('runtime') == 'org.gnome.Platform' and manifest.get('sdk') == 'org.gnome.Sdk')

# Every module but the app's own pins what it downloads.
modules = manifest.get('modules', [])
own = [m for m in modules if isinstance(m, dict) and m.get('name') == 'cardmark']
check('the app module is built from this checkout',
      len(own) == 1 and any(s.get('type') == 'dir' for s in own[0].get('sources', [])))
check('the app module comes last (after its dependencies)',
      bool(modules) and isinstance(modules[-1], dict) and modules[-1].get('name') == 'cardmark')

for module in modules:
    if not isinstance(module, dict):
        check(f"module {module!r} is inline (external module files are not checked)", False)
        continue
    if module.get('name') == 'cardmark':
        continue
    sources = module.get('sources', [])
    check(f"module {module.get('name')} has sources", bool(sources))
    for source in sources:
        kind = source.get('type')
        if kind == 'git':
            check(f"module {module.get('name')}: git source pinned to a commit",
                  re.fullmatch(r"[0-9a-f]{40}", source.get('commit', '')) is not None,
                  f"commit {source.get('commit')!r}")
        elif kind in ('archive', 'file'):
            check(f"module {module.get('name')}: {kind} source has a sha256",
                  re.fullmatch(r"[0-9a-f]{64}", source.get('sha256', '')) is not None,
                  f"sha256 {source.get('sha256')!r}")
        elif kind in ('patch', 'shell', 'script', 'dir'):
            check(f"module {module.get('name')}: {kind} source is local", 'url' not in source)
        else:
            check(f"module {module.get('name')}: source type {kind!r} is one this test knows", False)

print(f"1..{n}")
sys.exit(1 if failed else 0)
