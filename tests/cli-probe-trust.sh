#!/bin/bash
# cli-probe-trust.sh — the capacity check's journal is believed only as far
# as it can be proved (issue 23, cases 2, 3, 8 and 14): a damaged journal is
# refused with the card untouched; another card of the same size in the same
# reader (the same identity) is refused and the journal kept for the right
# one; a chunk the card changed since the kill is left alone; a journals
# folder that will not let a journal go does not leave the card refused;
# a disk that fills mid-check says what was written. Every case compares
# the sha256 of the whole card before and after.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
source "$(dirname "$0")/lib/probe.sh"

# An immutable journals folder (below) would outlive a test that dies.
folder=
trap '[ -n "$folder" ] && chattr -i "$folder" 2> /dev/null; cleanup' EXIT

journal_path () {
  find "$XDG_DATA_HOME" -name '*.journal' 2> /dev/null | head -1
}

# stop_and_kill DEVICE MOMENT: a check of DEVICE killed (SIGKILL) at MOMENT.
stop_and_kill () {
  CARDMARK_PROBE_STOP_AT=$2 "$CARDMARK_CLI" probe-capacity "$1" > /dev/null 2>&1 &
  local pid=$!
  if wait_stopped $pid; then
    kill -KILL $pid
    wait $pid 2> /dev/null
    return 0
  fi
  kill -KILL $pid 2> /dev/null
  wait $pid 2> /dev/null
  return 1
}

# flip FILE OFFSET COUNT: inverts COUNT bytes of FILE from OFFSET.
flip () {
  python3 - "$1" "$2" "$3" <<'PY'
import sys
path, at, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "r+b") as f:
    f.seek(at)
    data = f.read(n)
    f.seek(at)
    f.write(bytes(b ^ 0xFF for b in data))
PY
}

# find_in FILE HEX: the byte offset of the bytes HEX in FILE, or nothing.
find_in () {
  python3 - "$1" "$2" <<'PY'
import sys
at = open(sys.argv[1], "rb").read().find(bytes.fromhex(sys.argv[2]))
if at >= 0:
    print(at)
PY
}

# block_hex DEVICE-OR-FILE OFFSET [LENGTH]: bytes at OFFSET, as hex.
block_hex () {
  python3 - "$1" "$2" "${3:-4096}" <<'PY'
import sys
with open(sys.argv[1], "rb") as f:
    f.seek(int(sys.argv[2]))
    print(f.read(int(sys.argv[3])).hex())
PY
}

card_up 1 0 64MiB
cp "$SIMCARD_DIR/backing.img" "$work/orig.img"
before=$(card_sum)
size=$(blockdev --getsize64 "$SIMCARD_DEV")

elapsed "case 3"
# Case 3: a journal with 16 bytes of saved data, a byte of the nonce or a
# byte of an offset flipped is refused: the card is not touched, the
# journal is kept, and the message says what to do without blaming the card.
if stop_and_kill "$SIMCARD_DEV" sign:150; then
  journal=$(journal_path)
  cp "$journal" "$work/good.journal"
  killed=$(card_sum)
  # A signed place starts with the check's magic, then holds the nonce
  # (bytes 32-48) and the place's offset (48-56).
  read -r top sig < <(python3 - "$SIMCARD_DIR/backing.img" <<'PY'
import sys
data = open(sys.argv[1], "rb").read()
at = 0
while True:
    at = data.find(b"CardMark capacity probe", at)
    if at < 0 or at % 4096 == 0:
        break
    at += 1
print(at, data[at:at + 64].hex())
PY
)
  nonce_at=$(find_in "$journal" "${sig:64:32}")
  offset_at=$(find_in "$journal" "${sig:96:16}")
  original_at=$(find_in "$journal" "$(block_hex "$work/orig.img" "$top")")
  check "the journal holds the nonce, the offsets and the saved data where the test can find them" \
    test -n "$nonce_at" -a -n "$offset_at" -a -n "$original_at"
  for what in data:$((original_at + 1000)):16 nonce:$((nonce_at + 3)):1 offset:$((offset_at + 1)):1; do
    name=${what%%:*}
    at=${what#*:}
    cp "$work/good.journal" "$journal"
    flip "$journal" "${at%:*}" "${at#*:}"
    "$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > "$work/out" 2> "$work/err"
    status=$?
    check "a flipped $name: --restore refuses (status $status)" test $status -eq 1
    check "… the card is untouched" test "$(card_sum)" = "$killed"
    check "… the journal is kept" test -f "$journal"
    check "… the message says the journal is damaged and can be deleted" \
      grep -q "journal $journal is damaged.*delete $journal" "$work/err"
    check "… and does not blame the card" bash -c "! grep -q 'card reported' '$work/err'"
  done
  "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2> "$work/err"
  check "a new check is refused by the damaged journal, saying it can be deleted" \
    grep -q "damaged.*delete $journal" "$work/err"
  check "… and the card is untouched" test "$(card_sum)" = "$killed"
  cp "$work/good.journal" "$journal"
  "$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > /dev/null 2> "$work/err"
  check "the journal as it was puts the card back" test "$(card_sum)" = "$before"
  check "… and is removed" test "$(journal_count)" -eq 0
else
  not_ok "the probe never reached sign:150"
fi

elapsed "case 8"
# Case 8: killed while rewriting the card's start; then someone writes into
# the chunk the journal's slot holds. --restore leaves that write alone.
if stop_and_kill "$SIMCARD_DEV" flush:20; then
  journal=$(journal_path)
  read -r slot_offset slot_length < <(python3 - "$journal" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
at = data.find(b"CMSLOT0")
print(*struct.unpack_from("<QQ", data, at + 8))
PY
)
  check "the journal holds a chunk" test "${slot_length:-0}" -gt 8192
  head -c 4096 /dev/urandom > "$work/new.block"
  seek=$(( (slot_offset + 8192) / 4096 ))
  dd if="$work/new.block" of="$SIMCARD_DEV" bs=4096 seek=$seek oflag=direct conv=fsync status=none
  cp "$work/orig.img" "$work/expected.img"
  dd if="$work/new.block" of="$work/expected.img" bs=4096 seek=$seek conv=notrunc status=none
  "$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > "$work/out" 2> "$work/err"
  check "--restore after the card changed succeeds" test $? -eq 0
  check "… puts back the signatures and keeps the new write" \
    test "$(card_sum)" = "$(sha256sum < "$work/expected.img" | cut -d' ' -f1)"
  check "… and says what it left alone" grep -q "left as they are" "$work/out"
  dd if="$work/orig.img" of="$SIMCARD_DEV" bs=4096 seek=$seek skip=$seek count=1 oflag=direct conv=fsync status=none
  check "… (the card as it was, the block written back)" test "$(card_sum)" = "$before"
else
  not_ok "the probe never reached flush:20"
fi

elapsed "case 14, read-only folder"
# A journals folder that does not let a journal go (immutable, which holds
# for root too): the restore puts the card back, and a new check runs.
if stop_and_kill "$SIMCARD_DEV" sign:150; then
  folder=$(dirname "$(journal_path)")
  if chattr +i "$folder" 2> /dev/null; then
    "$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > "$work/out" 2> "$work/err"
    check "--restore with a read-only journals folder succeeds" test $? -eq 0
    check "… the card holds what it held" test "$(card_sum)" = "$before"
    check "… and it says the journal could not be removed" grep -q "could not be removed" "$work/out"
    "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2> "$work/err"
    status=$?
    check "a new check of the restored card runs (status $status)" test $status -eq 0
    check "… and leaves the card as it was" test "$(card_sum)" = "$before"
    chattr -i "$folder"
    "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2> "$work/err"
    check "with the folder writable again, a check runs and leaves no journal" \
      test $? -eq 0 -a "$(journal_count)" -eq 0
  else
    skip "chattr +i does not work on $folder"
    "$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > /dev/null
  fi
else
  not_ok "the probe never reached sign:150 (read-only folder)"
fi

elapsed "case 14, full disk"
# The computer's disk fills after the signatures are written: the message
# says they were written and put back, not that nothing was written.
mkdir -p "$work/full"
if mount -t tmpfs -o size=1152k tmpfs "$work/full" 2> /dev/null; then
  XDG_DATA_HOME=$work/full "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2> "$work/err.full"
  status=$?
  left=$(find "$work/full" -name '*.journal' | wc -l)
  umount "$work/full"
  check "a disk that fills mid-check fails it (status $status)" test $status -eq 1
  check "… saying the disk filled and the card's data was put back" grep -q "filled up.*put back" "$work/err.full"
  check "… not that nothing was written" bash -c "! grep -qi 'nothing was written' '$work/err.full'"
  check "… with the card as it was and no journal left" test "$(card_sum)" = "$before" -a "$left" -eq 0
else
  skip "cannot mount a small tmpfs to fill"
fi
"$simcard/simcard-down" "$SIMCARD_DIR"
SIMCARD_DIR=

elapsed "case 2"
# Case 2: two cards of one size in one reader share its identity. A loop
# device names its card by its backing file, so card B attached from the
# same path as card A is, to the journal, the same card; the "reader" is a
# symbolic link to whichever loop device holds the slot.
slot=$work/slot.img
reader=$work/reader
head -c $((32 * 1024 * 1024)) /dev/urandom > "$slot"
sum_a=$(sha256sum < "$slot")
dev=$(losetup -f --show "$slot")
loops+=("$dev")
ln -sfn "$dev" "$reader"
if stop_and_kill "$reader" sign:40; then
  losetup -d "$dev"
  mv "$slot" "$work/a.img"
  head -c $((32 * 1024 * 1024)) /dev/urandom > "$slot"
  sum_b=$(sha256sum < "$slot")
  dev=$(losetup -f --show "$slot")
  loops+=("$dev")
  ln -sfn "$dev" "$reader"
  "$CARDMARK_CLI" probe-capacity --restore "$reader" > "$work/out" 2> "$work/err"
  status=$?
  check "--restore on another card with the same identity refuses (status $status)" test $status -eq 1
  check "… card B is untouched" test "$(sha256sum < "$dev")" = "$sum_b"
  check "… the journal is kept" test "$(journal_count)" -eq 1
  fingerprints=$(grep -o "fingerprint [0-9a-f]* then, [0-9a-f]* now" "$work/err")
  check "… and the message shows what differs (${fingerprints:-nothing})" \
    test -n "$fingerprints" -a "$(echo "$fingerprints" | awk '{print $2}')" != "$(echo "$fingerprints" | awk '{print $4}')"
  losetup -d "$dev"
  mv "$slot" "$work/b.img"
  mv "$work/a.img" "$slot"
  dev=$(losetup -f --show "$slot")
  loops+=("$dev")
  ln -sfn "$dev" "$reader"
  "$CARDMARK_CLI" probe-capacity --restore "$reader" > "$work/out" 2> "$work/err"
  check "card A, back in the reader, is restored (status $?)" test "$(sha256sum < "$dev")" = "$sum_a"
  check "… and its journal is removed" test "$(journal_count)" -eq 0
else
  not_ok "the probe never reached sign:40 on the loop card"
fi

elapsed "end"
done_testing
