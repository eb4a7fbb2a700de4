#!/bin/bash
# cli-endure-kill.sh — a wear test killed (SIGKILL) at any moment carries
# on (issue 34, case 7): on a fast 64 MiB simulated card, where a whole
# round takes less than the seconds between two saves of its state, the
# test is killed at 20 random moments, writing or reading, and each time
# --resume proves the card is the one it wore and carries on. The moments
# are amounts of data the card has taken (its own counters), so the
# test waits on the card, not on a clock. A state file grown to 100 MB
# is then called damaged, not missing.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-endure-kill-XXXXXX)
export XDG_DATA_HOME=$work/xdg
states=$XDG_DATA_HOME/cardmark/wear
card_dir=
cleanup () {
  [ -n "$card_dir" ] && "$here/simcard/simcard-down" "$card_dir"
  rm -rf "$work"
}
trap cleanup EXIT

"$here/simcard/simcard-up" good-a1 --size 64MiB -- --set write.bandwidth-mb-s=400 --set read.bandwidth-mb-s=800 \
  > "$work/card.env" || skip_all "no simulated card here (see tests/simcard)"
. "$work/card.env"
card_dir=$SIMCARD_DIR
udevadm settle 2> /dev/null

# Bytes the simulated card has taken and given so far (its counters).
moved () { echo $(( $(sed -n 's/^write_bytes=//p' "$card_dir/mnt/stats") + $(sed -n 's/^read_bytes=//p' "$card_dir/mnt/stats") )); }

seed=${CARDMARK_KILL_SEED:-$(date +%s)}
RANDOM=$seed
echo "# seed $seed (CARDMARK_KILL_SEED=$seed replays these moments)"

resume=()
refused=0
for i in $(seq 20); do
  # Up to two rounds on (a round writes and reads 64 MiB each).
  target=$(( $(moved) + (RANDOM * 32768 + RANDOM) % (4 * SIMCARD_SIZE) + 1 ))
  "$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data "${resume[@]}" --rounds 1000000 > /dev/null 2> "$work/err.$i" &
  pid=$!
  while kill -0 $pid 2> /dev/null && [ "$(moved)" -lt "$target" ]; do sleep 0.01; done
  if ! kill -KILL $pid 2> /dev/null; then
    wait $pid
    echo "# run $i ended by itself (status $?):"
    sed 's/^/#   /' "$work/err.$i"
    refused=$((refused + 1))
  fi
  wait $pid 2> /dev/null
  resume=(--resume)
done
check "every one of 20 runs carried on until it was killed" test $refused -eq 0
check "no run said the saved test belongs to another card" sh -c "! grep -l 'does not belong' $work/err.*"
check "a state is kept after the last kill" test -n "$(ls "$states" 2> /dev/null)"

# The last one, carried on and stopped by Ctrl-C once it has moved more.
target=$(( $(moved) + 2 * SIMCARD_SIZE ))
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --resume --rounds 1000000 --json > "$work/last.json" 2> "$work/err" &
pid=$!
while kill -0 $pid 2> /dev/null && [ "$(moved)" -lt "$target" ]; do sleep 0.01; done
kill -INT $pid
wait $pid
check "the last run, stopped by Ctrl-C, ends with its document" python3 -c "
import json, sys
r = json.load(open('$work/last.json'))
e = r['endurance']
sys.exit(not (e['stopped'] == 'cancelled' and len(e['rounds']) >= 1 and all(x['bad_sectors'] == 0 for x in e['rounds'])))"

# A state file grown to 100 MB is no state CardMark wrote: said to be
# damaged, not "none is saved", and nothing is written.
state=$(ls "$states"/device-*.ini | head -1)
truncate -s 100M "$state"
before=$(sha256sum "$SIMCARD_DEV" | cut -d' ' -f1)
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --resume > /dev/null 2> "$work/err"
check "a 100 MB state is refused (status 1)" test $? -eq 1
check "… as damaged, not as missing" file_says "is damaged" "$work/err"
check "… and the card is unchanged (sha256)" test "$(sha256sum "$SIMCARD_DEV" | cut -d' ' -f1)" = "$before"

done_testing
