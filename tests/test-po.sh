#!/bin/bash
# test-po.sh — the translations: every .po compiles cleanly with its format
# strings intact, and po/POTFILES.in lists exactly the files that hold
# translatable strings.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-po.sh [SRCDIR]   (defaults to the repository around this script)

set -u
srcdir=${1:-$(cd "$(dirname "$0")/.." && pwd)}
CARDMARK_CLI=${CARDMARK_CLI:-unused}   # tap.sh wants it; this test needs no CLI
. "$(dirname "$0")/lib/tap.sh"

command -v msgfmt >/dev/null || skip_all "msgfmt is missing (apt install gettext)"

cd "$srcdir" || exit 1

# 1. Every language in LINGUAS has a .po, and each passes msgfmt --check
#    (header, plural forms, printf directives) with no fuzzy or untranslated
#    entries left.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
while read -r lang; do
  case "$lang" in ''|\#*) continue ;; esac
  po=po/$lang.po
  if [ ! -f "$po" ]; then
    not_ok "$lang: $po exists"
    continue
  fi
  if msgfmt --check --statistics -o "$tmp/$lang.mo" "$po" 2>"$tmp/$lang.err"; then
    stats=$(cat "$tmp/$lang.err")
    ok "$lang: msgfmt --check ($stats)"
  else
    sed 's/^/# /' "$tmp/$lang.err"
    not_ok "$lang: msgfmt --check"
    continue
  fi
  case "$stats" in
    *fuzzy*|*untranslated*) not_ok "$lang: every message translated ($stats)" ;;
    *) ok "$lang: every message translated" ;;
  esac
done < po/LINGUAS

# 2. POTFILES.in against the tree, both ways.
# The chart layouts are passed to xgettext by po/meson.build, one per name
# in the chart_kinds list of src/charts/meson.build.
chart_layouts () {
  sed -n '/^chart_kinds = \[/,/^\]/p' src/charts/meson.build |
    sed -n "s/^[[:space:]]*'\([a-z0-9-]*\)',.*/src\/charts\/cm-chart-layout-\1.c/p"
}
{
  sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' po/POTFILES.in
  chart_layouts
} | sort -u > "$tmp/listed"
if [ "$(chart_layouts | wc -l)" -gt 0 ]; then
  ok "the chart layouts are read from src/charts/meson.build ($(chart_layouts | wc -l))"
else
  not_ok "the chart layouts are read from src/charts/meson.build"
fi

{
  # C sources calling a gettext macro: _( N_( C_( NC_( Q_( ngettext (…
  grep -lE '(^|[^A-Za-z0-9_])(_|N_|C_|NC_|Q_|g_dngettext|g_dpgettext2|ngettext)[[:space:]]*\(' \
    -r src --include='*.c' --include='*.h'
  grep -l 'translatable="yes"' -r data --include='*.ui'
  # Data files xgettext reads with its own rules (desktop, metainfo, schema)
  for f in data/*.desktop.in data/*.desktop.in.in data/*.metainfo.xml.in data/*.metainfo.xml.in.in; do
    [ -f "$f" ] && echo "$f"
  done
  for f in data/polkit/*.policy.in; do
    [ -f "$f" ] && grep -q '<message' "$f" && echo "$f"
  done
  for f in data/*.gschema.xml; do
    [ -f "$f" ] && grep -q '<summary\|<description' "$f" && echo "$f"
  done
} | sort -u > "$tmp/found"

missing=$(comm -13 "$tmp/listed" "$tmp/found")
if [ -z "$missing" ]; then
  ok "POTFILES.in lists every file with translatable strings"
else
  echo "$missing" | sed 's/^/# not in po\/POTFILES.in: /'
  not_ok "POTFILES.in lists every file with translatable strings"
fi

stale=
while read -r f; do
  if [ ! -f "$f" ]; then
    echo "# listed in po/POTFILES.in (or chart_kinds) but missing: $f"
    stale=1
  elif ! grep -qxF "$f" "$tmp/found"; then
    echo "# listed in po/POTFILES.in but has no translatable strings: $f"
    stale=1
  fi
done < "$tmp/listed"
if [ -z "$stale" ]; then
  ok "every file in POTFILES.in exists and has translatable strings"
else
  not_ok "every file in POTFILES.in exists and has translatable strings"
fi

done_testing
