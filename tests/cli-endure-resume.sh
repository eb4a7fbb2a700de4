#!/bin/bash
# cli-endure-resume.sh — cardmark-cli endure --resume on simulated cards
# that wear out: a wear test stopped (Ctrl-C) in the middle of a round
# returns within a second, keeps where it stood, and carried on gives the
# same rounds as an uninterrupted test of an identical card; a new test
# of that card is refused, saying how to carry on; a state with a flipped
# byte, or another card's, is refused and the card is left untouched; a
# card pulled mid-round stops the test naming the place, and the test
# carries on once the card is back.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-endure-resume-XXXXXX)
export XDG_DATA_HOME=$work/xdg
states=$XDG_DATA_HOME/cardmark/wear
cards=()
cleanup () {
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT

# Slow enough that a round takes a few seconds and a stop falls inside
# one; the same wear on every card, so identical cards wear identically.
speed=(--set write.bandwidth-mb-s=25 --set read.bandwidth-mb-s=60)
wear=(--set wear.writes=3 --set wear.spread=0.5 --set wear.seed=11)

card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2>/dev/null
}

card_sum () { sha256sum "$1" | cut -d' ' -f1; }
# Bytes the simulated card has taken so far (its daemon's counters).
written () { sed -n 's/^write_bytes=//p' "$1/mnt/stats"; }

# wait_for SECONDS COMMAND…: polls until COMMAND succeeds; fails after SECONDS.
wait_for () {
  local end=$(( $(date +%s) + $1 ))
  shift
  until "$@"; do
    [ "$(date +%s)" -lt "$end" ] || return 1
    sleep 0.02
  done
}
more_written () { [ "$(written "$1")" -ge "$2" ]; }

# stop_and_time PID SIGNAL: sends the signal, waits on the process (a
# watchdog kills it after 20 s, so a hang is a failure, not a stuck
# test), and sets rc and took (seconds from the signal to its end).
stop_and_time () {
  kill -"$2" "$1"
  wait_bounded "$1"
}

# wait_bounded PID: waits on the process, as stop_and_time does.
wait_bounded () {
  local t0 dog
  t0=$(date +%s.%N)
  ( sleep 20; kill -9 "$1" 2> /dev/null ) &
  dog=$!
  wait "$1"
  rc=$?
  took=$(echo "$(date +%s.%N) - $t0" | bc)
  kill "$dog" 2> /dev/null
  wait "$dog" 2> /dev/null
}

card good-a1 --size 32MiB -- "${speed[@]}" "${wear[@]}" || skip_all "no simulated card here (see tests/simcard)"
a_dev=$SIMCARD_DEV a_dir=$SIMCARD_DIR size=$SIMCARD_SIZE first=$SIMCARD_WEAR_FIRST_ROUND
card good-a1 --size 32MiB -- "${speed[@]}" "${wear[@]}" || not_ok "a second, identical card"
b_dev=$SIMCARD_DEV b_dir=$SIMCARD_DIR
rounds=$((first + 2))
echo "# model: first bad round $first; $rounds rounds of $size bytes"

# The test as it runs uninterrupted, on card A.
"$CARDMARK_CLI" endure "$a_dev" --destroy-data --rounds "$rounds" --json > "$work/whole.json" 2> "$work/err"
check "the uninterrupted test ends (status 4: the card wore out)" test $? -eq 4
check "and keeps no state once it ended" test -z "$(ls "$states" 2> /dev/null | grep "$(basename "$a_dev")")"

# Card B, stopped by Ctrl-C in the middle of round 2's write; the maker's
# endurance given then is kept for the test carried on.
tbw=0.5
"$CARDMARK_CLI" endure "$b_dev" --destroy-data --rounds "$rounds" --tbw "$tbw" --json > "$work/stopped.json" 2> "$work/err" &
pid=$!
wait_for 60 more_written "$b_dir" $((size + size / 2))
check "card B is being written in round 2" more_written "$b_dir" $((size + size / 2))
stop_and_time $pid INT
# The time is printed, not bounded (a busy machine stretches it); a
# hang is the watchdog's kill, which no status below accepts.
echo "# Ctrl-C: the test ended $took s after the signal"
check "after a round, the stopped test ends with its document (status 5, a stop)" test $rc -eq 5
check "which says it was stopped, keeping round 1" json_check "$work/stopped.json" \
  "r['endurance']['stopped'] == 'cancelled' and len(r['endurance']['rounds']) == 1"
state=$(ls "$states"/device-*"$(basename "$b_dev")".ini 2> /dev/null)
check "the state is kept" test -n "$state" -a -s "$state"
check "it stands in round 2, writing, past its start" \
  grep -qzE "round=2.*phase=0.*place=[1-9]" "$state"
check "with round 1's figures" grep -q "^rounds-done=1" "$state"

# A new test of card B, without --resume: refused, saying how to carry on.
before=$(card_sum "$b_dev")
"$CARDMARK_CLI" endure "$b_dev" --destroy-data --rounds "$rounds" > "$work/out" 2> "$work/err"
check "a new test of a card with a saved one is refused (status 1)" test $? -eq 1
check "naming where it stopped and --resume" file_says "round 2, writing.*--resume" "$work/err"
check "nothing was written (sha256)" test "$(card_sum "$b_dev")" = "$before"
check "and the state is still there" test -s "$state"

# A state with one flipped byte: refused, nothing written.
cp "$state" "$work/state.good"
python3 - "$state" <<'PY'
import sys
p = sys.argv[1]
data = bytearray(open(p, 'rb').read())
i = data.index(b'place=') + len(b'place=')
data[i] ^= 0x01
open(p, 'wb').write(data)
PY
"$CARDMARK_CLI" endure "$b_dev" --destroy-data --resume --rounds "$rounds" > "$work/out" 2> "$work/err"
check "a state with a flipped byte is refused (status 1)" test $? -eq 1
check "saying it is damaged and nothing was written" file_says "damaged.*nothing was written" "$work/err"
check "the card is unchanged (sha256)" test "$(card_sum "$b_dev")" = "$before"
cp "$work/state.good" "$state"

# Card B's state under card A's name: another card's, refused.
a_state=$states/$(basename "$state" | sed "s/$(basename "$b_dev")\.ini$/$(basename "$a_dev").ini/")
cp "$state" "$a_state"
a_before=$(card_sum "$a_dev")
"$CARDMARK_CLI" endure "$a_dev" --destroy-data --resume --rounds "$rounds" > "$work/out" 2> "$work/err"
check "another card's state is refused (status 1)" test $? -eq 1
check "saying it does not belong to this card" file_says "does not belong to the card" "$work/err"
check "card A is unchanged (sha256)" test "$(card_sum "$a_dev")" = "$a_before"
rm -f "$a_state"

# Carried on: the same rounds as the uninterrupted test.
"$CARDMARK_CLI" endure "$b_dev" --destroy-data --resume --rounds "$rounds" --json > "$work/resumed.json" 2> "$work/err"
check "the resumed test ends like the uninterrupted one (status 4)" test $? -eq 4
check "it gives the same rounds as the uninterrupted test" python3 - "$work/whole.json" "$work/resumed.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["endurance"] for p in sys.argv[1:3])
keys = ["round", "sectors", "bad_sectors", "new_bad_sectors", "bytes_written"]
ra = [[x[k] for k in keys] for x in a["rounds"]]
rb = [[x[k] for k in keys] for x in b["rounds"]]
print("# uninterrupted %s\n# resumed       %s" % (ra, rb), file=sys.stderr)
sys.exit(0 if ra == rb and a["first_error_round"] == b["first_error_round"] and a["stopped"] == b["stopped"] else 1)
PY
check "the first error in the modelled round" json_check "$work/resumed.json" \
  "r['endurance']['first_error_round'] == $first"
check "the resumed test keeps the maker's endurance given when it began" json_check "$work/resumed.json" \
  "r['endurance']['maker_bytes'] == round($tbw * 1e12)"
check "the resumed test keeps the stopped one's start" python3 - "$work/stopped.json" "$work/resumed.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["started"] for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
check "card B's test is in the history once: the carried-on document took the stopped one's place" \
  python3 - "$XDG_DATA_HOME" "$b_dev" "$work/resumed.json" <<'PY'
import glob, json, sys
folder, dev, resumed = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
docs = [json.load(open(p)) for p in glob.glob(folder + "/cardmark*/history/*.json")]
mine = [d for d in docs if d.get("kind") == "wear" and d["target"].get("device") == dev]
print("# card B's wear documents in the history: %s" % [len(d["endurance"]["rounds"]) for d in mine], file=sys.stderr)
sys.exit(0 if len(mine) == 1 and mine[0]["endurance"]["rounds"] == resumed["endurance"]["rounds"] else 1)
PY
check "and its state is gone" test ! -e "$state"

# Pulled out mid-round: a card that does not wear, pulled while round 1
# is written, then put back in the same reader.
card good-a1 --size 32MiB -- "${speed[@]}" || not_ok "a card to pull"
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 2 --json > "$work/pulled.json" 2> "$work/pulled.err" &
pid=$!
wait_for 60 more_written "$SIMCARD_DIR" $((size / 2))
kill -USR1 "$SIMCARD_PID"
wait_bounded $pid
echo "# pulled: $(head -c 300 "$work/pulled.err" | tr '\n' ' ')"
check "a card pulled mid-round stops the test (status 1)" test $rc -eq 1
check "naming the round, the phase and the place, and how to carry on" \
  file_says "went away in round 1, writing at .*(byte [0-9]*).*carry on" "$work/pulled.err"
check "… with the CLI's own command" file_says "endure --resume --destroy-data $SIMCARD_DEV" "$work/pulled.err"
state=$(ls "$states"/device-*"$(basename "$SIMCARD_DEV")".ini 2> /dev/null)
check "its state is kept" test -n "$state" -a -s "$state"
kill -USR2 "$SIMCARD_PID"
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --resume --rounds 2 --json > "$work/back.json" 2> "$work/err"
check "put back, the test carries on to its end (status 0)" test $? -eq 0
check "with both rounds whole" json_check "$work/back.json" \
  "[x['round'] for x in r['endurance']['rounds']] == [1, 2] and all(x['bad_sectors'] == 0 for x in r['endurance']['rounds']) and r['endurance']['stopped'] == 'rounds'"

# Pulled after a finished round: the rounds done make a document, and
# the card's line says why it stopped and how to carry on.
mark=$(written "$SIMCARD_DIR")
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 3 > "$work/out" 2> "$work/pulled2.err" &
pid=$!
wait_for 60 more_written "$SIMCARD_DIR" $((mark + size + size / 2))
kill -USR1 "$SIMCARD_PID"
wait_bounded $pid
check "a card pulled in round 2 stops the test (status 1)" test $rc -eq 1
check "saying it went away in round 2, and how to carry on" \
  file_says "went away in round 2.*carry on" "$work/pulled2.err"
check "… with the CLI's own command" file_says "endure --resume --destroy-data $SIMCARD_DEV" "$work/pulled2.err"
kill -USR2 "$SIMCARD_PID"
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --resume --rounds 2 > /dev/null 2>&1
check "put back, it carries on (status 0)" test $? -eq 0

# Ctrl-C in round 1: no round to report, but where it stood is kept.
mark=$(written "$SIMCARD_DIR")
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 1 --json > "$work/first.json" 2> "$work/first.err" &
pid=$!
wait_for 60 more_written "$SIMCARD_DIR" $((mark + size / 4))
stop_and_time $pid INT
echo "# Ctrl-C in round 1: ended $took s after the signal"
check "Ctrl-C in round 1 ends it as a stopped run (status 5)" test $rc -eq 5
check "saying where it stood is kept" file_says "stood is kept" "$work/first.err"
check "and how to carry on, in the CLI's words" file_says "endure --resume" "$work/first.err"
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --resume --rounds 1 --json > "$work/first.json" 2> "$work/err"
check "and it carries on to its one round" json_check "$work/first.json" \
  "len(r['endurance']['rounds']) == 1 and r['endurance']['rounds'][0]['bytes_written'] == $size"

done_testing
