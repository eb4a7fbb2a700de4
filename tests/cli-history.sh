#!/bin/bash
# cli-history.sh — cardmark-cli history shows what others wrote into the
# history folder without letting it drive the terminal or hang the reader.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME=$work/data
for name in cardmark cardmark-devel; do
  mkdir -p "$XDG_DATA_HOME/$name/history"
done

# A result whose card name and summary carry escape sequences: set the
# window title, clear the screen, ring the bell, reverse the line.
python3 - "$G_TEST_SRCDIR/data/result-small.json" "$work/evil.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["target"]["name"] = "\x1b]0;pwned\x07Card\x1b[2J\u202e"
r["summary"] = "fine\x1b[2J\x9b31m\r"
json.dump(r, open(sys.argv[2], "w"))
PY
for name in cardmark cardmark-devel; do
  h=$XDG_DATA_HOME/$name/history
  cp "$work/evil.json" "$h/20261202-090000-aaaaaa.json"
  # A broken file whose name carries an escape sequence is reported by name.
  echo '{ broken' > "$h/$(printf 'bad\033]0;title\007').json"
done

"$CARDMARK_CLI" history > "$work/out" 2> "$work/err"
check "history exits 0" test $? -eq 0
check "it lists the result" grep -q "Card" "$work/out"
check "no control character reaches the terminal on stdout" \
  python3 -c 'import sys, unicodedata as u; t = open(sys.argv[1], encoding="utf-8").read(); sys.exit(any(u.category(c) == "Cc" and c != "\n" or c == "\u202e" for c in t))' "$work/out"
check "nor on stderr" \
  python3 -c 'import sys, unicodedata as u; t = open(sys.argv[1], encoding="utf-8").read(); sys.exit(any(u.category(c) == "Cc" and c != "\n" for c in t))' "$work/err"
check "the broken file is still reported" grep -q "Skipped .*bad" "$work/err"

"$CARDMARK_CLI" history --csv > "$work/csv" 2> /dev/null
check "history --csv exits 0" test $? -eq 0
check "it prints the batch report's heading and a line for the card" \
  python3 -c 'import csv, sys; rows = list(csv.reader(open(sys.argv[1], newline=""))); sys.exit(not (rows[0][0] == "card" and len(rows) == 2 and "Card" in rows[1][0]))' "$work/csv"
check "no control character reaches the CSV" \
  python3 -c 'import sys, unicodedata as u; t = open(sys.argv[1], encoding="utf-8", newline="").read().replace("\r\n", ""); sys.exit(any(u.category(c) in ("Cc", "Cf") for c in t))' "$work/csv"

# --json: every readable document, whole, oldest first, read one at a
# time; the broken one named on stderr.
for name in cardmark cardmark-devel; do
  python3 - "$G_TEST_SRCDIR/data/result-small.json" "$XDG_DATA_HOME/$name/history/20261201-080000-bbbbbb.json" <<'PY2'
import json, sys
r = json.load(open(sys.argv[1]))
r["started"] = "2026-12-01T08:00:00.000000Z"
r["target"]["name"] = "Older card"
json.dump(r, open(sys.argv[2], "w"))
PY2
done
"$CARDMARK_CLI" history --json > "$work/json" 2> "$work/err"
check "history --json exits 0" test $? -eq 0
check "it prints both documents, whole and oldest first" \
  python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not (len(d) == 2 and d[0]["target"]["name"] == "Older card" and d[1]["started"] > d[0]["started"] and [t["name"] for t in d[0]["tests"]] == [t["name"] for t in json.load(open(sys.argv[2]))["tests"]]))' "$work/json" "$G_TEST_SRCDIR/data/result-small.json"
check "the broken file is named for --json too" grep -q "Skipped .*bad" "$work/err"
"$CARDMARK_CLI" history --csv > "$work/csv" 2> /dev/null
check "--csv from the index keeps one line per card: the two names are two cards" \
  python3 -c 'import csv, sys; rows = list(csv.reader(open(sys.argv[1], newline=""))); sys.exit(not (len(rows) == 3 and rows[1][0].startswith("Older card")))' "$work/csv"

# A FIFO named like a result must not block the reader.
for name in cardmark cardmark-devel; do
  mkfifo "$XDG_DATA_HOME/$name/history/pipe.json"
done
timeout 20 "$CARDMARK_CLI" history > "$work/out" 2> "$work/err"
check "history does not hang on a FIFO and exits 0" test $? -eq 0
check "the FIFO is reported as not a regular file" grep -q "pipe.json: it is not a regular file" "$work/err"

# The index is a cache: damaged, it is built again without a word.
# make_history NAME N: a history folder of N copies of the small result,
# a minute apart (both the app's names for it point at one folder).
make_history () {
  local data=$work/$1
  mkdir -p "$data/cardmark/history" "$work/$1-target"
  ln -s "$data/cardmark" "$data/cardmark-devel"
  python3 - "$G_TEST_SRCDIR/data/result-small.json" "$data/cardmark/history" "$2" <<'PY'
import json, sys, datetime
doc = json.load(open(sys.argv[1]))
start = datetime.datetime(2025, 1, 1, tzinfo=datetime.timezone.utc)
for i in range(int(sys.argv[3])):
    when = start + datetime.timedelta(minutes=i)
    doc["started"] = when.strftime("%Y-%m-%dT%H:%M:%S.000000Z")
    doc["target"]["name"] = "Card %d" % i
    json.dump(doc, open("%s/%s-%06x.json" % (sys.argv[2], when.strftime("%Y%m%d-%H%M%S"), i), "w"))
PY
}

# count_indexed FILE: the documents the index file knows.
count_indexed () {
  python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("SELECT count(*) FROM docs").fetchone()[0])' "$1"
}

# damage_then_save NAME HOW: a history of 40 results and its index, the
# index damaged by the function HOW, then a result saved by bench --save.
damage_then_save () {
  local name=$1 how=$2 data=$work/$1 h index n
  make_history "$name" 40
  h=$data/cardmark/history
  XDG_DATA_HOME=$data "$CARDMARK_CLI" history > /dev/null 2>&1
  index=$(echo "$h"/.index.sqlite)
  check "$name: the index spans more than three pages" test "$(stat -c %s "$index")" -gt 12288
  "$how" "$index"
  XDG_DATA_HOME=$data CARDMARK_TEST_PLAN=tiny "$CARDMARK_CLI" bench "$data-target" --save --only seq-read > /dev/null 2>&1
  check "$name: bench --save exits 0" test $? -eq 0
  n=$(ls "$h"/*.json | wc -l)
  check "$name: a 41st document was saved" test "$n" -eq 41
  check "$name: bench --save brought the index up to date" test "$(count_indexed "$index")" -eq "$n"
  XDG_DATA_HOME=$data "$CARDMARK_CLI" history > "$work/$name.out" 2> "$work/$name.err"
  check "$name: history exits 0" test $? -eq 0
  check "$name: without a word on stderr" test ! -s "$work/$name.err"
  check "$name: it lists every result" test "$(tail -n +3 "$work/$name.out" | wc -l)" -eq "$n"
  XDG_DATA_HOME=$data "$CARDMARK_CLI" history --json > "$work/$name.json" 2> /dev/null
  check "$name: --json prints every result" \
    python3 -c 'import json, sys; sys.exit(len(json.load(open(sys.argv[1]))) != int(sys.argv[2]))' "$work/$name.json" "$n"
}
noise () { dd if=/dev/urandom of="$1" bs=4096 seek=2 count=1 conv=notrunc status=none; }
cut_short () { truncate -s $(($(stat -c %s "$1") / 2)) "$1"; }
folder_instead () { rm -f "$1" "$1-wal" "$1-shm"; mkdir "$1"; echo x > "$1/inside"; }
damage_then_save noise noise
damage_then_save truncated cut_short
damage_then_save folder folder_instead

# A listing held open by a reader that does not read holds no one: a
# bench --save and another history meanwhile both finish. 40 documents
# whole are far more than a pipe holds, so the listing stays blocked in
# its write until the reader lets go.
make_history held 40
data=$work/held
h=$data/cardmark/history
XDG_DATA_HOME=$data "$CARDMARK_CLI" history > /dev/null 2>&1
mkfifo "$work/listing" "$work/release"
{ IFS= read -r first; echo "$first" > "$work/first"; read -r _ < "$work/release"; cat > /dev/null; } < "$work/listing" &
reader=$!
XDG_DATA_HOME=$data "$CARDMARK_CLI" history --json > "$work/listing" 2> /dev/null &
lister=$!
until [ -s "$work/first" ] || ! kill -0 "$lister" 2> /dev/null; do sleep 0.1; done
check "the held listing has begun printing" test -s "$work/first"
XDG_DATA_HOME=$data CARDMARK_TEST_PLAN=tiny "$CARDMARK_CLI" bench "$data-target" --save --only seq-read > /dev/null 2>&1
check "bench --save meanwhile exits 0" test $? -eq 0
check "its result is in the index" test "$(count_indexed "$(echo "$h"/.index.sqlite)")" -eq 41
XDG_DATA_HOME=$data "$CARDMARK_CLI" history --json > "$work/held.json" 2> "$work/held.err"
check "history meanwhile exits 0" test $? -eq 0
check "and lists all 41" \
  python3 -c 'import json, sys; sys.exit(len(json.load(open(sys.argv[1]))) != 41)' "$work/held.json"
check "the held listing was still blocked all along" kill -0 "$lister"
echo > "$work/release"
wait "$lister"
check "the held listing then finishes, exit 0" test $? -eq 0
wait "$reader"

# A build of many documents says how far it is on stderr, a line a batch
# off a terminal, up to all of them.
make_history many 600
XDG_DATA_HOME=$work/many "$CARDMARK_CLI" history > /dev/null 2> "$work/many.err"
check "a long build exits 0" test $? -eq 0
n=$(ls "$work"/many/cardmark/history/*.json | wc -l)
check "it starts from 0 of every document" file_says "^Indexing the history: 0 of $n…$" "$work/many.err"
check "and ends at all of them" test "$(tail -n 1 "$work/many.err")" = "Indexing the history: $n of $n…"
check "in several batches" test "$(grep -c '^Indexing the history' "$work/many.err")" -gt 2
XDG_DATA_HOME=$work/many "$CARDMARK_CLI" history > /dev/null 2> "$work/many.err"
check "up to date, it says nothing" test ! -s "$work/many.err"
# 8 MiB of empty objects (issue 47): within the size a result may have,
# but millions of values json-glib would build a tree of (848 MB). The
# list names it and goes on; plot refuses it.
python3 -c 'import sys; n = (8 * 2**20 - 2) // 3; open(sys.argv[1], "w").write("[" + ",".join(["{}"] * n) + "]")' "$work/objects.json"
for name in cardmark cardmark-devel; do
  rm -f "$XDG_DATA_HOME/$name/history/pipe.json"
  cp "$work/objects.json" "$XDG_DATA_HOME/$name/history/20261203-090000-cccccc.json"
done
"$CARDMARK_CLI" history > "$work/out" 2> "$work/err"
check "history lists past 8 MiB of empty objects (status 0)" test $? -eq 0
check "… saying it holds more values than a result can" \
  file_says "20261203-090000-cccccc.json: It holds more values than a result can" "$work/err"
check "… and lists the others" grep -q "Older card" "$work/out"
"$CARDMARK_CLI" plot "$work/objects.json" --output "$work/objects.png" > "$work/out" 2> "$work/err"
check "plot refuses it (status 1)" test $? -eq 1
check "… saying it holds more values than a result can" file_says "It holds more values than a result can" "$work/err"

done_testing
