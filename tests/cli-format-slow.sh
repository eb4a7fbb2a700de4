#!/bin/bash
# cli-format-slow.sh — cardmark-cli format on a card whose erase takes
# time: the simulated card's discard costs what its model says
# ([card] discard-us-per-mib, see tests/simcard/README.md), so the
# progress line's time left, measured from the pieces discarded so far,
# is more than 0:00 while the card erases and goes down as it does.
# The progress is read back from a terminal (script(1)), as a user sees it.
# Then a second format is stopped (SIGINT) while it erases, and says so,
# and a third in the benchmark after it (--bench).
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"
command -v mkfs.fat > /dev/null && command -v fsck.fat > /dev/null || skip_all "dosfstools is not installed"
command -v script > /dev/null || skip_all "no script(1) to give the CLI a terminal"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-format-slow-XXXXXX)
export XDG_DATA_HOME=$work/xdg
export SIMCARD_PARTSCAN=1
card_dir=
cleanup () {
  [ -n "$card_dir" ] && "$here/simcard/simcard-down" "$card_dir"
  rm -rf "$work"
}
trap cleanup EXIT

# 256 MiB whose reads and writes are fast, so the format's time is the
# erase's: 40 ms for each MiB discarded, about ten seconds for the card.
"$here/simcard/simcard-up" good-a1 --size 256MiB -- \
  --set write.bandwidth-mb-s=400 --set read.bandwidth-mb-s=800 \
  --set card.discard-us-per-mib=40000 > "$work/card.env" || skip_all "no simulated card here (see tests/simcard)"
. "$work/card.env"
card_dir=$SIMCARD_DIR
udevadm settle 2> /dev/null
check "the model has the erase cost asked for" test "$SIMCARD_DISCARD_US_PER_MIB" = 40000

# stdout (the document) to a file, stderr (the progress) on the terminal.
script -qec "\"$CARDMARK_CLI\" format \"$SIMCARD_DEV\" --destroy-data --json > \"$work/doc.json\"" \
  /dev/null > "$work/tty" 2>&1
rc=$?
check "on a terminal the format finishes (status 0)" test $rc -eq 0
[ $rc -eq 0 ] || sed 's/^/# /' "$work/tty"
check "the card honoured the discard" json_check "$work/doc.json" "r['format']['discard'] == 'honoured'"
check "the whole card went to the simulated card as discards" \
  grep -qx "discard_bytes=$SIMCARD_SIZE" "$SIMCARD_DIR/mnt/stats"
echo "# the erase took $(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["format"]["discard_seconds"])' "$work/doc.json") s;" \
  "the model charges $((SIMCARD_SIZE / 1048576 * SIMCARD_DISCARD_US_PER_MIB / 1000)) ms"
# The card answers each discard no sooner than its cost, so the erase
# took at least what the model charges for the whole card (less the
# 2 ms the card may credit the first piece with).
check "the erase took what the model charges for it" json_check "$work/doc.json" \
  "r['format']['discard_seconds'] >= $SIMCARD_SIZE / 1048576 * $SIMCARD_DISCARD_US_PER_MIB / 1e6 - 0.002"

# The progress line is redrawn in place ("\r\033[K" before each): its
# erase readings, in order, as seconds left.
python3 - "$work/tty" > "$work/left" <<'PY'
import re, sys
text = open(sys.argv[1], 'rb').read().decode('utf-8', 'replace')
for line in re.split(r'[\r\n]', text):
    m = re.search(r'Erasing the card\s+(\d+) %\s+(?:(\d+):)?(\d+):(\d\d) left', line)
    if m:
        h, mi, s = int(m.group(2) or 0), int(m.group(3)), int(m.group(4))
        print(m.group(1), h * 3600 + mi * 60 + s)
PY
echo "# erase readings (percent, seconds left): $(tr '\n' ' ' < "$work/left")"
check "the erase's progress gives a time left" test -s "$work/left"
check "the time left is more than 0:00 while the card erases" awk '$2 > 0 { found = 1 } END { exit !found }' "$work/left"
check "the time left goes down as the card erases" \
  awk 'NR == 1 { first = $2 } { last = $2 } END { exit !(NR > 1 && first > 0 && last < first) }' "$work/left"
check "the share done only grows while the card erases" \
  awk 'NR > 1 && $1 < prev { bad = 1 } { prev = $1 } END { exit bad }' "$work/left"

# Stopped (Ctrl-C) while the card erases, once its line gives a time
# left: status 5, and the words say the card's old data may be left and
# to format it again; nothing says formatted, nothing is saved.
before_docs=$(ls "$XDG_DATA_HOME"/cardmark*/history/*.json 2> /dev/null | wc -l)
script -qfec "echo \$\$ > \"$work/pid\"; exec \"$CARDMARK_CLI\" format \"$SIMCARD_DEV\" --destroy-data > \"$work/stop.out\"" \
  /dev/null > "$work/stop.tty" 2>&1 &
runner=$!
while kill -0 $runner 2> /dev/null && ! grep -q "Erasing the card .* left" "$work/stop.tty"; do sleep 0.05; done
check "the erase's line gave a time left before the stop" grep -q "Erasing the card .* left" "$work/stop.tty"
kill -INT "$(cat "$work/pid")"
wait $runner
rc=$?
check "stopped while erasing, the format ends stopped (status 5)" test $rc -eq 5
[ $rc -eq 5 ] || tr '\r' '\n' < "$work/stop.tty" | sed 's/^/# /'
check "it says the card's old data may be left, and to format it again" \
  file_says "The format was stopped while it erased the card: some of the card's old data may be left on it, and it has no working file system. Format it again before you use it." "$work/stop.tty"
check "nothing says it is formatted, and no result is saved" \
  test -z "$(grep -i "formatted\|clean" "$work/stop.tty" "$work/stop.out" | grep -v "Erasing and formatting")" \
  -a "$(ls "$XDG_DATA_HOME"/cardmark*/history/*.json 2> /dev/null | wc -l)" = "$before_docs"

# Stopped (Ctrl-C) in the benchmark after the format (--bench): the card
# is formatted, and the words say so and that the benchmark did not end;
# status 5, nothing saved, never "Formatted" as a pass. The benchmark
# puts back what it wrote, so the file system on the card is clean.
before_docs=$(ls "$XDG_DATA_HOME"/cardmark*/history/*.json 2> /dev/null | wc -l)
script -qfec "echo \$\$ > \"$work/pid\"; exec \"$CARDMARK_CLI\" format \"$SIMCARD_DEV\" --destroy-data --bench > \"$work/bench.out\"" \
  /dev/null > "$work/bench.tty" 2>&1 &
runner=$!
while kill -0 $runner 2> /dev/null && ! grep -q "Measuring the card's speed after the erase" "$work/bench.tty"; do sleep 0.05; done
check "the benchmark after the format began before the stop" \
  grep -q "Measuring the card's speed after the erase" "$work/bench.tty"
kill -INT "$(cat "$work/pid")"
wait $runner
rc=$?
check "stopped in its benchmark, the format ends stopped (status 5)" test $rc -eq 5
[ $rc -eq 5 ] || tr '\r' '\n' < "$work/bench.tty" | sed 's/^/# /'
check "it says the card is formatted and the benchmark did not end" \
  file_says "The card is formatted, but the benchmark after the format was stopped before it ended. Run a benchmark to measure the card." "$work/bench.tty"
check "no result is saved and no document printed" \
  test ! -s "$work/bench.out" -a "$(ls "$XDG_DATA_HOME"/cardmark*/history/*.json 2> /dev/null | wc -l)" = "$before_docs"
eval "$(python3 "$here/lib/read-layout.py" "$SIMCARD_DEV")"
window=$(losetup -f --show -r -o "$start" --sizelimit "$length" "$SIMCARD_DEV")
check "the card's file system is whole after the stopped benchmark (fsck.fat -n)" fsck.fat -n "$window"
losetup -d "$window"

done_testing
