#!/bin/bash
# cli-several.sh — several TARGETs at once (issue 25): two simulated
# cards benchmarked together give their two documents in one JSON array
# in the order given, a missing third target is named while the others
# run (exit 1), two capacity checks at once both pass, two cards on one
# bus (CARDMARK_TEST_BUS_GROUP) take turns to measure, and two verifies
# (and two wear tests) at once run side by side, on one bus too, each
# saying it shared.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
need_simcard_path

simcard=$(cd "$(dirname "$0")/simcard" && pwd)
[ "$(id -u)" = 0 ] || skip_all "the cards need root for loop devices"

here=$(dirname "$0")
"$here/env/services-up" || skip_all "the system bus, udev and udisksd could not be started"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-several-XXXXXX)
export XDG_DATA_HOME=$work/xdg
dir_a= dir_b=
cleanup () {
  [ -n "$dir_a" ] && "$simcard/simcard-down" "$dir_a"
  [ -n "$dir_b" ] && "$simcard/simcard-down" "$dir_b"
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# Two cards, each its own simulated reader.
for card in a b; do
  "$simcard/simcard-up" good-a1 --size 64MiB > "$work/$card.env"
  case $? in
    0) ;;
    77) skip_all "no simulated card here (see tests/simcard)" ;;
    *) not_ok "simcard-up $card"; done_testing ;;
  esac
  eval "$(sed "s/^SIMCARD_/${card^^}_/" "$work/$card.env")"
done
dir_a=$A_DIR dir_b=$B_DIR

# UDisks learns a loop device's backing file a moment after the device;
# the jobs start once it knows both.
for dev in "$A_DEV" "$B_DEV"; do
  for _ in $(seq 100); do
    udisksctl info -b "$dev" 2> /dev/null | grep -q 'BackingFile:.*card.img' && break
    sleep 0.1
  done
done

"$CARDMARK_CLI" bench --only seq-read,rand-read-4k --json "$A_DEV" "$B_DEV" > "$work/bench.json" 2> "$work/err"
check "two cards benchmarked at once exit 0" test $? -eq 0
check "stdout is one JSON array of two documents" json_check "$work/bench.json" "isinstance(r, list) and len(r) == 2"
check "both are benchmarks" json_check "$work/bench.json" "all(d['kind'] == 'bench' for d in r)"
check "they come in the order given, each naming its own device" \
  json_check "$work/bench.json" "[d['target']['device'] for d in r] == ['$A_DEV', '$B_DEV']"
check "each ran the two tests asked for" \
  json_check "$work/bench.json" "all(sorted(t['name'] for t in d['tests']) == ['rand-read-4k', 'seq-read'] for d in r)"
check "each card's progress lines say whose they are" grep -q "^$A_DEV: " "$work/err"
check "…for the second card too" grep -q "^$B_DEV: " "$work/err"
check "no line is redrawn with a carriage return" test "$(tr -cd '\r' < "$work/err" | wc -c)" -eq 0
check "each loop device is a bus of its own: neither card waited" test "$(grep -c "Waiting for the card" "$work/err")" -eq 0

# Fair measurement: the test hook puts both loop devices on one bus, so
# one card's speed tests all end before the other's first one starts.
# Whose turn it is: the card of each "Running" line, in the order printed.
# A bus of this test's own: other tests' cards are grouped too, and
# processes on one bus wait for each other.
hub=hub-$$
turns () { sed -n 's/^\(\/dev\/loop[0-9]*\): Running .*/\1/p' "$1" | uniq | wc -l; }
check "side by side, the two cards' tests took turns" test "$(turns "$work/err")" -gt 2
if [ "${CARDMARK_TEST_HOOKS:-1}" = 1 ]; then
  # Writing too, so that every class is judged.
  judged=(--raw --allow-write --only seq-write,rand-read-4k,rand-write-4k)
  CARDMARK_TEST_BUS_GROUP=$hub "$CARDMARK_CLI" bench "${judged[@]}" --json "$A_DEV" "$B_DEV" > "$work/bus.json" 2> "$work/err"
  check "two cards on one bus exit 0" test $? -eq 0
  check "both documents are there, in order" \
    json_check "$work/bus.json" "[d['target']['device'] for d in r] == ['$A_DEV', '$B_DEV']"
  check "one card waited for the other, naming it" \
    grep -Eq "^($A_DEV: .*card in $B_DEV|$B_DEV: .*card in $A_DEV) to finish its speed test" "$work/err"
  check "one card ran all its tests, then the other all of its" test "$(turns "$work/err")" -eq 2
  # Taking turns, each card is judged as it is alone: both are the same
  # model, so both get the verdicts its profile was built to give (its
  # description: "meets A1, U1, C10; misses U3"), as cli-verdicts shows
  # for one card alone.
  check "each card gets the verdicts of its model, every class but A2 judged" python3 - "$work/bus.json" "$simcard/profiles/good-a1.ini" <<'PY'
import json, re, sys
together = json.load(open(sys.argv[1]))
description = re.search(r"^description=.*?: meets (.*); misses (.*)$", open(sys.argv[2]).read(), re.M)
meets = set(c.strip() for c in description.group(1).split(","))
misses = set(c.strip() for c in description.group(2).split(","))
def status(doc):
    return {c["class"]: c["status"] for c in doc["claims"]}
got = [status(d) for d in together]
print("# together %s\n# model meets %s, misses %s" % (got, sorted(meets), sorted(misses)), file=sys.stderr)
# (A2 is judged on queued tests, not run here.)
measured = all(s != "not-judged" for g in got for c, s in g.items() if c != "A2")
as_built = all(g.get(c) == "meets" for g in got for c in meets) and all(g.get(c) == "below" for g in got for c in misses)
sys.exit(0 if measured and as_built and got[0] == got[1] else 1)
PY

  # Two programs, one card each (as people script F3): they take turns
  # too, one naming the other's card.
  CARDMARK_TEST_BUS_GROUP=$hub "$CARDMARK_CLI" bench --only seq-read,rand-read-4k --json "$A_DEV" > "$work/a.json" 2> "$work/a.err" &
  a_pid=$!
  CARDMARK_TEST_BUS_GROUP=$hub "$CARDMARK_CLI" bench --only seq-read,rand-read-4k --json "$B_DEV" > "$work/b.json" 2> "$work/b.err"
  b_rc=$?
  wait $a_pid
  a_rc=$?
  check "two programs benchmarking on one bus both exit 0" test "$a_rc$b_rc" = 00
  check "one program waited for the other's card, naming it" \
    grep -Eq "card in $B_DEV to finish its speed test|card in $A_DEV to finish its speed test" "$work/a.err" "$work/b.err"
else
  skip "built without -Dtest_hooks=true, so CARDMARK_TEST_BUS_GROUP is not read"
fi

# One of three targets is missing: it is named, the other two still run.
missing=$work/no-such-card
"$CARDMARK_CLI" bench --only seq-read --json "$A_DEV" "$missing" "$B_DEV" > "$work/three.json" 2> "$work/err"
check "one target of three missing exits 1" test $? -eq 1
check "the missing one is named on stderr" grep -q "$missing" "$work/err"
check "the other two documents are there, in order" \
  json_check "$work/three.json" "[d['target']['device'] for d in r] == ['$A_DEV', '$B_DEV']"

# Without --json, a report per card, each under its target.
"$CARDMARK_CLI" bench --only seq-read "$A_DEV" "$B_DEV" > "$work/bench.txt" 2> "$work/err"
check "two text reports exit 0" test $? -eq 0
check "each report is headed by its target" \
  test "$(grep -cx -e "$A_DEV" -e "$B_DEV" "$work/bench.txt")" -eq 2

"$CARDMARK_CLI" probe-capacity --json "$A_DEV" "$B_DEV" > "$work/capacity.json" 2> "$work/err"
check "two capacity checks at once exit 0" test $? -eq 0
check "both find the card as large as it says" \
  json_check "$work/capacity.json" "[(d['device'], d['fake']) for d in r] == [('$A_DEV', False), ('$B_DEV', False)]"

# Two verifies at once run side by side: the cards' own speed is the
# limit, not CardMark. Told by their progress lines (one per card every
# two seconds), not by a time, which a busy machine stretches: each
# card's first progress line comes before the other's last.
side_by_side () {
  python3 - "$1" "$A_DEV" "$B_DEV" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().splitlines()
at = [[i for i, l in enumerate(lines) if l.startswith(dev + ": ") and re.search(r" \d+ %", l)]
      for dev in sys.argv[2:]]
print("# progress lines at %s and %s" % (at[0], at[1]), file=sys.stderr)
a, b = at
sys.exit(0 if a and b and a[0] < b[-1] and b[0] < a[-1] else 1)
PY
}
"$CARDMARK_CLI" verify --destroy-data --json "$A_DEV" "$B_DEV" > "$work/verify-two.json" 2> "$work/err"
check "two verifies at once exit 0" test $? -eq 0
check "two verifies at once run side by side" side_by_side "$work/err"
check "on buses of their own, neither verify says it shared its bus" \
  json_check "$work/verify-two.json" "not any('shared_bus_with' in t for d in r for t in d['tests'])"
if [ "${CARDMARK_TEST_HOOKS:-1}" = 1 ]; then
  # On one bus, bulk work runs side by side, and each document says whose
  # traffic its rates shared.
  CARDMARK_TEST_BUS_GROUP=$hub "$CARDMARK_CLI" verify --destroy-data --json "$A_DEV" "$B_DEV" > "$work/verify-bus.json" 2> "$work/err"
  check "two verifies on one bus exit 0" test $? -eq 0
  check "on one bus they still run side by side" side_by_side "$work/err"
  check "each verify's rates name the other card as sharing the bus" \
    json_check "$work/verify-bus.json" "[t.get('shared_bus_with') for t in r[0]['tests']] == [['$B_DEV']] * len(r[0]['tests']) and [t.get('shared_bus_with') for t in r[1]['tests']] == [['$A_DEV']] * len(r[1]['tests'])"
  check "…and a note says so in words" \
    json_check "$work/verify-bus.json" "all(any('$o' in n for n in d['notes']) for d, o in zip(r, ['$B_DEV', '$A_DEV']))"

  # A verify in one program, a benchmark in another on the same bus: the
  # verify pauses while the other card measures, and says so.
  CARDMARK_TEST_BUS_GROUP=$hub "$CARDMARK_CLI" verify --destroy-data --json "$A_DEV" > "$work/verify-a.json" 2> "$work/verify-a.err" &
  v_pid=$!
  for _ in $(seq 500); do grep -q "Verifying all of" "$work/verify-a.err" && break; sleep 0.02; done
  CARDMARK_TEST_BUS_GROUP=$hub "$CARDMARK_CLI" bench --only seq-read,rand-read-4k --json "$B_DEV" > "$work/bench-b.json" 2> "$work/bench-b.err"
  b_rc=$?
  wait $v_pid
  v_rc=$?
  check "a verify and another program's benchmark on one bus both exit 0" test "$v_rc$b_rc" = 00
  check "the verify said it paused while the other program's card measured" \
    grep -q "Paused while the card in $B_DEV measures its speed" "$work/verify-a.err"
else
  skip "built without -Dtest_hooks=true, so CARDMARK_TEST_BUS_GROUP is not read"
fi

# Two wear tests at once run side by side too; on one bus each document
# names the other card as having shared it, in words as well.
"$CARDMARK_CLI" endure --destroy-data --rounds 1 --json "$A_DEV" "$B_DEV" > "$work/endure-two.json" 2> "$work/err"
check "two wear tests at once exit 0" test $? -eq 0
check "two wear tests at once run side by side" side_by_side "$work/err"
check "both wear documents are there, each one round, card whole" \
  json_check "$work/endure-two.json" "[(d['target']['device'], len(d['endurance']['rounds']), d['endurance']['rounds'][0]['bad_sectors']) for d in r] == [('$A_DEV', 1, 0), ('$B_DEV', 1, 0)]"
check "on buses of their own, neither wear test says it shared its bus" \
  json_check "$work/endure-two.json" "not any('shared_bus_with' in d['endurance'] for d in r)"
if [ "${CARDMARK_TEST_HOOKS:-1}" = 1 ]; then
  CARDMARK_TEST_BUS_GROUP=$hub "$CARDMARK_CLI" endure --destroy-data --rounds 1 --json "$A_DEV" "$B_DEV" > "$work/endure-bus.json" 2> "$work/err"
  check "two wear tests on one bus exit 0" test $? -eq 0
  check "each wear test names the other card as sharing the bus" \
    json_check "$work/endure-bus.json" "[d['endurance'].get('shared_bus_with') for d in r] == [['$B_DEV'], ['$A_DEV']]"
  check "…and a note says so in words" \
    json_check "$work/endure-bus.json" "all(any('$o' in n for n in d['notes']) for d, o in zip(r, ['$B_DEV', '$A_DEV']))"
else
  skip "built without -Dtest_hooks=true, so CARDMARK_TEST_BUS_GROUP is not read"
fi

# The same card twice: the card lock refuses the second job, the first runs.
"$CARDMARK_CLI" bench --only seq-read --json "$A_DEV" "$A_DEV" > "$work/twice.json" 2> "$work/err"
check "one card given twice exits 1" test $? -eq 1
check "one of the two runs, the other is refused as busy" \
  json_check "$work/twice.json" "len(r) == 1 and r[0]['target']['device'] == '$A_DEV'"
check "the refusal says the card is busy" grep -q "busy" "$work/err"

done_testing
