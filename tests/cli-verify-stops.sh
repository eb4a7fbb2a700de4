#!/bin/bash
# cli-verify-stops.sh — a card that stops answering part-way through a
# full verify: the answer (the report's first line), the sentence under
# it, the report's lines, the --json document and the batch report
# (history --csv) all tell one story, and it is the simulated card's:
# where it stopped is what it took, what it lost and what it never
# reached add up to the card.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-verify-stops-XXXXXX)
export XDG_DATA_HOME=$work/xdg
cards=()
cleanup () {
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT

# A 128 MiB card that fails every command after 230 (udev's probe takes
# some of them), so it dies while it is written, somewhere in its first
# 115 MiB; where is the card's business, and read from the run.
dying_card () {
  "$here/simcard/simcard-up" good-a1 --size 128MiB -- --set write.bandwidth-mb-s=80 \
    --set read.bandwidth-mb-s=160 --set card.fail-after=230 > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2>/dev/null
}

# The card's own count of the bytes it took.
card_took () {
  sed -n 's/^write_bytes=//p' "$SIMCARD_DIR/mnt/stats"
}

# agree DOCUMENT CARD_BYTES CARD_TOOK [REPORT]: the document's facts
# against the card's, and the words of REPORT (the CLI's text) against
# both. Sizes in words are read back into bytes and must name the
# document's own figure, to the 0.1 of their last digit.
agree () {
  python3 - "$@" <<'PY'
import json, re, sys
doc = json.load(open(sys.argv[1]))
card, took = int(sys.argv[2]), int(sys.argv[3])
text = open(sys.argv[4], encoding="utf-8").read() if len(sys.argv) > 4 else None
v = doc["verify"]
bad = []
def need(what, ok):
    if not ok:
        bad.append(what)
units = {"bytes": 1, "kB": 1e3, "MB": 1e6, "GB": 1e9}
def size(words):
    n, unit = re.match(r"([0-9.]+)\s(\S+)", words).groups()
    return float(n) * units[unit], 10 ** -len(n.split(".")[1]) * units[unit] if "." in n else 1
def names(words, value):
    got, step = size(words)
    return abs(got - value) <= step / 2 + 1
written, checked, usable, lost = v["written_bytes"], v["checked_bytes"], v["usable_bytes"], v["lost_bytes"]
first = v["first_bad_offset"]
unreached = card - checked
need("the card stopped part-way (0 < written < card)", 0 < written < card)
need("the document is of the whole card", doc["target"]["device_bytes"] == card)
need("not finished", v["complete"] is False)
need("it stopped where writing stopped", first == written)
# The card took every byte the verify counts as written; what it took
# of the command that failed lies inside the region named refused.
need("the card took what was written (%d ≤ %d)" % (written, took), written <= took)
need("and no more than up to the refused region's end", took <= v["bad_regions"][0][1])
need("usable, lost and never reached add up to the card", usable + lost + unreached == card)
need("what was read back is not more than what was written", checked - v["sectors"]["unreadable"] * 512 <= written)
s = doc["summary"]
m = re.search(r"stopped working at (\S+\s\S+): (\S+\s\S+) could not be written or read back, and the (\S+\s\S+) after it were never reached", s)
need("the sentence names where, what was lost and what was never reached: " + s, m is not None)
if m:
    need("the sentence's place is where writing stopped", names(m.group(1), first))
    need("the sentence's loss is the document's", names(m.group(2), lost))
    need("the sentence's never reached is the rest of the card", names(m.group(3), unreached))
if text is not None:
    lines = text.splitlines()
    h = re.match(r"Data lost · the card stopped working at (\S+\s\S+), (\S+\s\S+) never reached$", lines[0])
    need("the answer says where and what was never reached: " + lines[0], h is not None)
    if h and m:
        need("the answer's place is the sentence's", h.group(1) == m.group(1))
        need("the answer's never reached is the sentence's", h.group(2) == m.group(3))
    field = lambda name: next((l.split(":", 1)[1].strip() for l in lines if l.startswith(name + ":")), None)
    need("Written: names what was written", field("Written") is not None and names(field("Written"), written))
    need("Data lost: names the loss", field("Data lost") is not None and names(field("Data lost"), lost))
    need("Not reached: names the rest of the card", field("Not reached") is not None and names(field("Not reached"), unreached))
    need("Data OK: names what is usable", names(field("Data OK"), usable))
    need("no read speed for a card that gave nothing back", usable > 0 or field("Read speed") is None)
    need("the sentence under it is the document's", s in text)
for b in bad:
    print("# disagrees: " + b, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}

dying_card || skip_all "no simulated card here (see tests/simcard)"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > "$work/report.out" 2> "$work/err"
check "a card that stops answering is data lost (status 4)" test $? -eq 4
saved=$(ls -t "$XDG_DATA_HOME"/cardmark*/history/*.json | head -1)
check "the report's words, its document and the card agree" agree "$saved" "$SIMCARD_SIZE" "$(card_took)" "$work/report.out"

dying_card || not_ok "a second dying card"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data --json > "$work/stopped.json" 2> "$work/err"
check "with --json too (status 4)" test $? -eq 4
check "the --json document and the card agree" agree "$work/stopped.json" "$SIMCARD_SIZE" "$(card_took)"

# The batch report: the same answer, the same loss.
"$CARDMARK_CLI" history --csv > "$work/batch.csv" 2> "$work/err"
check "the batch report says the answer and the loss of the --json run" python3 - "$work/batch.csv" "$work/stopped.json" <<'PY'
import csv, json, re, sys
doc = json.load(open(sys.argv[2]))
rows = [r for r in csv.DictReader(open(sys.argv[1], encoding="utf-8")) if doc["target"]["device"] in r["card"]]
row = rows[0] if rows else {}
m = re.search(r"stopped working at (\S+\s\S+): \S+\s\S+ could not be written or read back, and the (\S+\s\S+) after", doc["summary"])
ok = bool(rows) and m is not None and int(row["lost_bytes"]) == doc["verify"]["lost_bytes"] and \
     ("stopped working at %s, %s never reached" % (m.group(1), m.group(2))) in row["verdict"]
if not ok:
    print("# batch row: %s" % row, file=sys.stderr)
sys.exit(0 if ok else 1)
PY

done_testing
