#!/bin/bash
# cli-queue-check.sh — cardmark-cli queue-check on simulated cards. A
# sound card on a loop device (which queues nothing to it) holds every
# block, says queueing was not on and exits 0; a card whose queue is
# broken (cm-simcard --broken-queue: past 4 commands in flight, some
# writes land on the wrong block) has blocks read back wrong, named,
# and exits 4, while the same card checked at depth 1 holds every
# block; refusals (no --destroy-data, options out of bounds) exit 2
# and leave the card's sha256 unchanged; Ctrl-C stops it and says so.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"
need_simcard_path

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-queue-XXXXXX)
export XDG_DATA_HOME=$work/xdg
cards=()
cleanup () {
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT

card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2> /dev/null
}

card_sum () { sha256sum "$SIMCARD_DEV" | cut -d' ' -f1; }
stat_of () { sed -n "s/^$1=//p" "$SIMCARD_DIR/mnt/stats"; }

# Short runs: six seconds of writing over 16 MiB.
short=(--minutes 0.1 --area 16MiB)

# A sound card: good-a1 is attached in loop's plain mode, one command at a time.
card good-a1 --size 64MiB || skip_all "no simulated card here (see tests/simcard)"
before=$(card_sum)
"$CARDMARK_CLI" queue-check "$SIMCARD_DEV" "${short[@]}" > "$work/out" 2> "$work/err"
check "without --destroy-data: exit 2" test $? -eq 2
check "it says what the leave is for" grep -q -- "--destroy-data" "$work/err"
"$CARDMARK_CLI" queue-check "$SIMCARD_DEV" --destroy-data --minutes 0 > "$work/out" 2> "$work/err"
check "--minutes 0: exit 2" test $? -eq 2
check "it names the bounds" grep -q -- "--minutes must be from" "$work/err"
"$CARDMARK_CLI" queue-check "$SIMCARD_DEV" --destroy-data --depth 33 > "$work/out" 2> "$work/err"
check "--depth 33: exit 2" test $? -eq 2
check "the refusals left the card as it was" test "$(card_sum)" = "$before"
check "and sent it no write" test "$(stat_of write_bytes)" = 0

"$CARDMARK_CLI" queue-check "$SIMCARD_DEV" --destroy-data "${short[@]}" --json > "$work/sound.json" 2> "$work/err"
check "a sound card: exit 0" test $? -eq 0
check "kind queue, queueing not on, every block checked held" json_check "$work/sound.json" \
  'r["kind"] == "queue" and r["queue"]["queueing"] is False and r["queue"]["native"] is False and r["queue"]["bad_blocks"] == 0 and r["queue"]["blocks_checked"] > 0'
check "it wrote, read, flushed and discarded" json_check "$work/sound.json" \
  'all(r["queue"][k] > 0 for k in ("writes", "reads", "flushes", "discards"))'
check "the card took the check's writes" json_check "$work/sound.json" \
  "r['queue']['writes'] * 4096 <= $(stat_of write_bytes)"
check "its figures: IOPS at depth 1 and deep" json_check "$work/sound.json" \
  'r["queue"]["iops_depth_1"] > 0 and r["queue"]["iops_deep"] > 0'
check "progress said each phase" grep -q "Writing and reading at a deep queue" "$work/err"
"$CARDMARK_CLI" queue-check "$SIMCARD_DEV" --destroy-data "${short[@]}" > "$work/out" 2> "$work/err"
check "the words: queueing was not on, every block held" grep -q "Queueing was not on · every block held under a deep queue" "$work/out"
check "the report says how many blocks were read back" grep -q "^Read back: .* 0 wrong" "$work/out"

# Ctrl-C: wait until the check writes to the card, then stop it.
written=$(stat_of write_bytes)
"$CARDMARK_CLI" queue-check "$SIMCARD_DEV" --destroy-data --minutes 5 --area 16MiB > "$work/out" 2> "$work/err" &
pid=$!
while kill -0 "$pid" 2> /dev/null && [ "$(stat_of write_bytes)" = "$written" ]; do sleep 0.1; done
kill -INT "$pid"
wait "$pid"
check "Ctrl-C: exit 5" test $? -eq 5
check "it says it stops" grep -q "Stopping the queue check" "$work/err"
"$here/simcard/simcard-down" "$SIMCARD_DIR"

# A broken queue: a2-queued is attached with loop's direct I/O, so the
# check's 32 commands reach the card at once.
card a2-queued --size 64MiB -- --broken-queue 4 --set read.latency-us=500 --set write.latency-us=600 ||
  skip_all "no simulated card here (see tests/simcard)"
"$CARDMARK_CLI" queue-check "$SIMCARD_DEV" --destroy-data "${short[@]}" --json > "$work/broken.json" 2> "$work/err"
check "a broken queue: exit 4" test $? -eq 4
misplaced=$(stat_of misplaced_writes)
check "the card put writes in the wrong place" test "$misplaced" -gt 0
check "more than 4 commands reached it at once" test "$(stat_of in_flight_max)" -gt 4
check "blocks read back wrong, and named" json_check "$work/broken.json" \
  'r["queue"]["bad_blocks"] > 0 and len(r["queue"]["bad_offsets"]) == min(r["queue"]["bad_blocks"], 32) and all(o % 4096 == 0 for o in r["queue"]["bad_offsets"])'
check "no more blocks than the card misplaced, twice (its own and the one it hit)" json_check "$work/broken.json" \
  "r['queue']['bad_blocks'] <= 2 * $misplaced"
"$CARDMARK_CLI" history > "$work/history" 2>&1
check "History keeps it, with its words" grep -q "Queue check .* blocks read back wrong under a deep queue" "$work/history"

# With it, the kernel log replayed (CARDMARK_QUEUE_KMSG): a card on no
# MMC host counts its own I/O errors, not another host's recoveries.
block=${SIMCARD_DEV#/dev/}
{
  echo "6,1,1000000,-;blk_update_request: I/O error, dev $block, sector 8 op 0x1:(WRITE)"
  echo "6,2,2000000,-;mmc0: running CQE recovery"
  echo "[ 3.000000] I/O error, dev ${block}0, sector 16"
  echo "[ 4.000000] I/O error, dev $block, sector 24"
} > "$work/kmsg"
io_errors=$(grep -c "I/O error, dev $block," "$work/kmsg")
CARDMARK_QUEUE_KMSG=$work/kmsg \
  "$CARDMARK_CLI" queue-check "$SIMCARD_DEV" --destroy-data "${short[@]}" --depth 1 --json > "$work/depth1.json" 2> "$work/err"
check "the same card at depth 1: exit 0" test $? -eq 0
check "every block held" json_check "$work/depth1.json" \
  'r["queue"]["bad_blocks"] == 0 and r["queue"]["blocks_checked"] > 0 and r["queue"]["depth"] == 1'
check "and the card misplaced nothing more" test "$(stat_of misplaced_writes)" = "$misplaced"
if [ "${CARDMARK_TEST_HOOKS:-1}" = 1 ]; then
  check "the replayed log: its I/O errors counted with their times, no recovery" json_check "$work/depth1.json" \
    "r['queue']['kernel_log'] == 'replay' and r['queue']['counts']['io-error'] == $io_errors and r['queue']['counts']['recovery'] == 0 and len(r['queue']['events']) == $io_errors and all(e['at'] > 0 for e in r['queue']['events'])"
else
  skip "built without -Dtest_hooks=true, so CARDMARK_QUEUE_KMSG is not read"
fi

done_testing
