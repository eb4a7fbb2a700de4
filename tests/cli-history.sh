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
