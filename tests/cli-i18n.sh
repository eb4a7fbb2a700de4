#!/bin/bash
# cli-i18n.sh — cardmark-cli speaks the user's language: with LANGUAGE=vi
# its help and its error messages come from po/vi.po, and without a
# translation it falls back to English.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Needs CARDMARK_LOCALEDIR, the build's po folder, where meson compiles
# <lang>/LC_MESSAGES/cardmark.mo; the CLI binds its text domain there.

source "$(dirname "$0")/lib/tap.sh"

srcdir=$(cd "$(dirname "$0")/.." && pwd)
: "${CARDMARK_LOCALEDIR:?run through meson test}"

# C.UTF-8 rather than C: glibc ignores LANGUAGE in the "C" locale.
export LC_ALL=C.UTF-8
unset LANG LC_MESSAGES

# msgstr LANG MSGID: the translation of MSGID in po/LANG.po, read from the
# catalogue rather than typed here.
msgstr () {
  python3 - "$srcdir/po/$1.po" "$2" <<'PY'
import re, sys
path, want = sys.argv[1], sys.argv[2]
def unq(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t'}.get(m.group(1), m.group(1)), s)
entries, cur, field = [], {}, None
for line in open(path, encoding='utf-8'):
    line = line.rstrip('\n')
    m = re.match(r'(msgctxt|msgid_plural|msgid|msgstr(?:\[0\])?) "(.*)"$', line)
    if m:
        if m.group(1) == 'msgid' and cur.get('msgid') is not None:
            entries.append(cur); cur = {}
        field = m.group(1).replace('[0]', '')
        cur[field] = unq(m.group(2))
    elif line.startswith('"') and field:
        cur[field] += unq(line[1:-1])
entries.append(cur)
for e in entries:
    if e.get('msgid') == want and 'msgctxt' not in e:
        print(e.get('msgstr', ''), end='')
        sys.exit(0 if e.get('msgstr') else 1)
sys.exit(1)
PY
}

if [ ! -f "$CARDMARK_LOCALEDIR/vi/LC_MESSAGES/cardmark.mo" ]; then
  skip_all "no compiled catalogue in $CARDMARK_LOCALEDIR"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# contains FILE TEXT: succeeds when FILE holds TEXT literally.
contains () {
  grep -qF -- "$2" "$1"
}
not_contains () {
  ! grep -qF -- "$2" "$1"
}

# 1. --help: the command list is translated.
for id in 'Commands:' 'Measure a card, a folder on it, or its device'; do
  want=$(msgstr vi "$id") || { not_ok "po/vi.po translates “$id”"; continue; }
  LANGUAGE=vi "$CARDMARK_CLI" --help > "$work/help" 2>&1
  if contains "$work/help" "$want" && ! contains "$work/help" "$id"; then
    ok "LANGUAGE=vi cardmark-cli --help shows “$want”"
  else
    not_ok "LANGUAGE=vi cardmark-cli --help shows “$want” (got: $(head -c 300 "$work/help"))"
  fi
done

# 2. An error message with a format argument, on stderr, and the exit
#    status does not depend on the language.
id='There is nothing at %s. Check the path and try again.'
template=$(msgstr vi "$id") || not_ok "po/vi.po translates “$id”"
want=${template//%s//nonexistent}
LANGUAGE=vi "$CARDMARK_CLI" bench /nonexistent > "$work/out" 2> "$work/err"
status=$?
if [ -n "$template" ] && contains "$work/err" "$want"; then
  ok "LANGUAGE=vi cardmark-cli bench /nonexistent says “$want”"
else
  not_ok "LANGUAGE=vi cardmark-cli bench /nonexistent says “$want” (got: $(head -c 300 "$work/err"))"
fi
LANGUAGE= "$CARDMARK_CLI" bench /nonexistent > /dev/null 2> "$work/err-en"
status_en=$?
check "the exit status is the same in Vietnamese and English ($status, $status_en)" \
  test "$status" -eq "$status_en" -a "$status" -ne 0
check "without LANGUAGE the message is English" contains "$work/err-en" "There is nothing at /nonexistent."

# 3. The other catalogues load too: one string each, from their .po.
for lang in es ja ko; do
  [ -f "$CARDMARK_LOCALEDIR/$lang/LC_MESSAGES/cardmark.mo" ] || { skip "$lang not compiled"; continue; }
  want=$(msgstr "$lang" 'Commands:') || { not_ok "po/$lang.po translates “Commands:”"; continue; }
  LANGUAGE=$lang "$CARDMARK_CLI" --help > "$work/help-$lang" 2>&1
  check "LANGUAGE=$lang cardmark-cli --help shows “$want”" contains "$work/help-$lang" "$want"
done

# 4. --json output is for programs: it stays the same in every language.
LANGUAGE=vi "$CARDMARK_CLI" history --json > "$work/h-vi.json" 2> /dev/null
LANGUAGE= "$CARDMARK_CLI" history --json > "$work/h-en.json" 2> /dev/null
check "history --json is the same with LANGUAGE=vi" cmp -s "$work/h-vi.json" "$work/h-en.json"

# 5. Tables line up in every language: columns are counted in characters
#    on the terminal (a Japanese or Korean one takes two), not in bytes.
#    aligned KIND FILE [TEXT…]: checks the table of `bench` (TEXT: the
#    status every criterion has), `history` or `decode` (TEXT: values that
#    must all start in one column).
aligned () {
  python3 - "$@" <<'PY'
import re, sys, unicodedata
kind, path = sys.argv[1], sys.argv[2]
text = open(path, 'rb').read().decode('utf-8')  # strict: no character cut in half
lines = text.splitlines()
def width(s):
    return sum(0 if unicodedata.combining(c) else
               2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in s)
def same(what, widths):
    if len(widths) < 2 or len(set(widths)) != 1:
        print(f"# {what}: {widths}", file=sys.stderr)
        sys.exit(1)
if kind == 'bench':
    # The heading row and a row with every column end together; each
    # criterion's figure and its requirement start in the same columns.
    # The one test's row follows the heading, named in the user's words.
    full = [lines[2]]
    same('heading and the sequential read row', [width(lines[1])] + [width(l) for l in full])
    status = sys.argv[3]
    crit = [l for l in lines if re.match(r' {7}\S.* (MB/s|IOPS) ', l)]
    if len(crit) < 3:
        sys.exit(1)
    same('criteria figures', [width(re.match(r'(.*? (MB/s|IOPS))', l).group(1)) for l in crit])
    same('criteria statuses', [width(l) - width(status) if l.endswith(status) else -1 for l in crit])
elif kind == 'history':
    run = re.escape(sys.argv[3])
    rows = [re.match(r'(.*' + run + r'(?:\s+(?:–|[0-9.]+)){4})  ', l).group(1) for l in lines[2:]]
    same('heading, units and rows', [width(lines[0].rsplit('  ', 1)[0]), width(lines[1])] + [width(r) for r in rows])
elif kind == 'decode':
    same('values', [width(l[:l.index(v)]) for v in sys.argv[3:] for l in lines if v in l])
PY
}

# no_kept_sentence OUTPUT DOCUMENT…: OUTPUT holds none of the sentences the
# documents (saved with LANGUAGE unset) kept, so each was made in the
# reader's language when shown.
no_kept_sentence () {
  python3 - "$@" <<'PY'
import json, sys
shown = open(sys.argv[1], encoding='utf-8').read()
kept = {json.load(open(p)).get("summary") for p in sys.argv[2:]} - {None}
found = [k for k in kept if k in shown]
print(f"# kept: {sorted(kept)}; shown: {found}", file=sys.stderr)
sys.exit(1 if found or not kept else 0)
PY
}

card=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-i18n-XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$work" "$card"' EXIT
XDG_DATA_HOME="$work/data" "$CARDMARK_CLI" bench "$card" --only seq-read --save --json > /dev/null 2>&1
XDG_DATA_HOME="$work/data" "$CARDMARK_CLI" bench "$card" --only seq-read --save --json > /dev/null 2>&1
# A long name of wide characters, cut at 24 columns, and one that a cut
# at 24 bytes would split in the middle of a character.
python3 - "$work"/data/cardmark*/history/*.json <<'PY'
import json, sys
for path, name in zip(sys.argv[1:], ["サンディスク エクストリーム プロ 128GB", "Aサンディスク・エクストリーム"]):
    r = json.load(open(path))
    r["target"]["name"] = name
    # Only the name in the Card column: a size, which the card's file
    # system gives where TMPDIR is on a block device, would come first.
    r["target"].pop("device_bytes", None)
    # Only the name kept: where TMPDIR is on a block device, the facts a
    # name is made from when shown (name_from, name_detail) would win.
    r["target"].pop("name_from", None)
    r["target"].pop("name_detail", None)
    json.dump(r, open(path, "w"))
PY
for lang in C es ja ko vi; do
  LANGUAGE=$lang "$CARDMARK_CLI" bench "$card" --only seq-read --claim U3,V30,A2 > "$work/bench-$lang" 2> /dev/null
  status=$( [ $lang = C ] && echo "Not judged" || msgstr $lang "Not judged")
  check "LANGUAGE=$lang: the bench table lines up" aligned bench "$work/bench-$lang" "$status"
  LANGUAGE=$lang XDG_DATA_HOME="$work/data" "$CARDMARK_CLI" history > "$work/history-$lang" 2> /dev/null
  quick=$( [ $lang = C ] && echo "Quick benchmark" || msgstr $lang "Quick benchmark")
  check "LANGUAGE=$lang: the history table lines up, in whole characters" aligned history "$work/history-$lang" "$quick"
  check "LANGUAGE=$lang: history says the quick benchmark in its words ($quick)" contains "$work/history-$lang" " $quick "
  [ $lang = C ] || check "LANGUAGE=$lang: history shows no sentence the documents kept in English" \
    no_kept_sentence "$work/history-$lang" "$work"/data/cardmark*/history/*.json
done
# A card's name CardMark made from its device ("Loop device on card.img",
# kept in English by a CLI with LANGUAGE unset) is said in the reader's
# language from the facts the document keeps beside it.
XDG_DATA_HOME="$work/loop" "$CARDMARK_CLI" bench "$card" --only seq-read --save > /dev/null 2>&1
python3 - "$work"/loop/cardmark*/history/*.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["target"].update(reader="loop", name="Loop device on card.img", name_from="loop", name_detail="card.img")
r["target"].pop("device_bytes", None)
json.dump(r, open(sys.argv[1], "w"))
PY
for lang in es ja; do
  LANGUAGE=$lang XDG_DATA_HOME="$work/loop" "$CARDMARK_CLI" history > "$work/loop-$lang" 2> /dev/null
  want=$(msgstr $lang "Loop device on %s" | sed 's/%s/card.img/')
  # The Card column is 24 columns wide: its start is enough.
  check "LANGUAGE=$lang: History titles the loop device in its words ($want)" contains "$work/loop-$lang" "${want:0:12}"
  check "LANGUAGE=$lang: … not in the words the document kept" not_contains "$work/loop-$lang" "Loop device on"
done
check "a long card name is cut with …" contains "$work/history-ja" "サンディスク エクストリ… $(msgstr ja 'Quick benchmark')"
want=$(msgstr ja 'scratch file') || not_ok "po/ja.po translates “scratch file”"
check "LANGUAGE=ja: the target's mode is in Japanese ($want)" contains "$work/bench-ja" "($want)"

cid=$(python3 - "$CARDMARK_SHARED/reference/sd-register-vectors.tsv" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1], newline=''), delimiter='\t'):
    if row['id'] == 'libmaple-transcend-4gb':
        print(row['cid'])
PY
)
for lang in C ja ko; do
  LANGUAGE=$lang "$CARDMARK_CLI" decode --cid "$cid" > "$work/decode-$lang" 2> /dev/null
  check "LANGUAGE=$lang: decode's values line up" aligned decode "$work/decode-$lang" SU04G 0x158058b0 2012-01 0x03
done

done_testing
