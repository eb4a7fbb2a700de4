#!/bin/bash
# cli-probe-journal.sh — a capacity check loses nothing when it is killed
# or stopped: killed (SIGKILL) at three moments, its journal puts the card
# back with --restore; a journal is refused for another card; and INT,
# TERM, HUP and QUIT each end it with the card as it was.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
need_test_hooks CARDMARK_PROBE_STOP_AT
source "$(dirname "$0")/lib/probe.sh"

# Killed at three moments: while signing, while pushing the cache out,
# while putting the data back. The journal restores every byte.
card_up 8 64MiB
before=$(card_sum)
for moment in sign:150 flush:20 restore:5; do
  CARDMARK_PROBE_STOP_AT=$moment "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2>&1 &
  pid=$!
  if wait_stopped $pid; then
    kill -KILL $pid
    wait $pid 2> /dev/null
    check "killed at $moment, the card has lost data" test "$(card_sum)" != "$before"
    check "… and a journal is left" test "$(journal_count)" -eq 1
    "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2> "$work/err"
    check "… a new check refuses to start before --restore" grep -q -- "--restore" "$work/err"
    "$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > "$work/out"
    check "… --restore succeeds" test $? -eq 0
    check "… and the card holds exactly what it held" test "$(card_sum)" = "$before"
    check "… and the journal is gone" test "$(journal_count)" -eq 0
  else
    not_ok "the probe never reached $moment"
    kill -KILL $pid 2> /dev/null
  fi
done
"$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > "$work/out"
check "--restore with no journal says there is nothing to put back" grep -q "nothing to put back" "$work/out"
"$simcard/simcard-down" "$SIMCARD_DIR"
SIMCARD_DIR=

elapsed "A journal is never written"
# A journal is never written to another card, even in the same reader.
# The "reader" is a symbolic link to the card's device, the way
# /dev/disk/by-path names a slot: pointed at card B, it holds another card
# under the same name. (Reusing one loop device number for both cards races
# with udev and with other tests on the machine.)
head -c $((64 * 1024 * 1024)) /dev/urandom > "$work/a.img"
head -c $((64 * 1024 * 1024)) /dev/urandom > "$work/b.img"
sum_a=$(sha256sum < "$work/a.img")
sum_b=$(sha256sum < "$work/b.img")
dev=$(losetup -f --show "$work/a.img")
loops+=("$dev")
dev_b=$(losetup -f --show "$work/b.img")
loops+=("$dev_b")
reader=$work/reader
ln -sfn "$dev" "$reader"
CARDMARK_PROBE_STOP_AT=sign:40 "$CARDMARK_CLI" probe-capacity "$reader" > /dev/null 2>&1 &
pid=$!
if wait_stopped $pid; then
  kill -KILL $pid
  wait $pid 2> /dev/null
  ln -sfn "$dev_b" "$reader"
  "$CARDMARK_CLI" probe-capacity --restore "$reader" > /dev/null 2> "$work/err"
  check "a journal for another card in the same reader is refused (exit 1)" test $? -eq 1
  check "… saying it is for another card" grep -q "another card" "$work/err"
  check "… and that card is not touched" test "$(sha256sum < "$dev_b")" = "$sum_b"
  ln -sfn "$dev" "$reader"
  "$CARDMARK_CLI" probe-capacity --restore "$reader" > /dev/null
  check "the right card, back in the reader, is restored" test "$(sha256sum < "$dev")" = "$sum_a"
else
  not_ok "the probe never reached sign:40"
fi

# The computer's disk is full: the journal cannot be kept, so the check
# writes nothing to the card and says what to do.
mkdir -p "$work/full"
if mount -t tmpfs -o size=256k tmpfs "$work/full" 2> /dev/null; then
  XDG_DATA_HOME=$work/full "$CARDMARK_CLI" probe-capacity "$dev" 2> "$work/err.full"
  status=$?
  umount "$work/full"
  check "a full disk for the journal fails the check (status 1)" test $status -eq 1
  check "… saying the computer's disk is full" grep -q "disk is full" "$work/err.full"
  check "… with the card untouched" test "$(sha256sum < "$dev")" = "$sum_a"
else
  skip "cannot mount a small tmpfs to fill"
fi

elapsed "INT, TERM, HUP"
# INT, TERM, HUP (a dropped SSH session) and QUIT: each stops the check,
# which puts the card's data back before it ends.
for sig in INT TERM HUP QUIT; do
  CARDMARK_PROBE_STOP_AT=sign:100 "$CARDMARK_CLI" probe-capacity "$dev" > /dev/null 2> "$work/err.$sig" &
  pid=$!
  if wait_stopped $pid; then
    kill -$sig $pid
    kill -CONT $pid
    wait $pid
    status=$?
    check "SIG$sig ends the check with status 5 (got $status)" test $status -eq 5
    check "… says the capacity check stopped" grep -q "Capacity check stopped before the end" "$work/err.$sig"
    check "… says it was cancelled and the data put back" grep -q "put back" "$work/err.$sig"
    check "… and leaves the card unchanged" test "$(sha256sum < "$dev")" = "$sum_a"
    check "… and no journal" test "$(journal_count)" -eq 0
  else
    not_ok "the probe never reached sign:100 for SIG$sig"
    kill -KILL $pid 2> /dev/null
  fi
done

elapsed "end"
done_testing
