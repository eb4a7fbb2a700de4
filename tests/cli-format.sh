#!/bin/bash
# cli-format.sh — cardmark-cli format: erase and format simulated cards
# of 256 MiB, 4 GiB and 34 GiB (sparse) as the SD File System
# Specification lays them out, and read the layout back from the card
# itself: the MBR's partition, the boot sector's file system, cluster
# size and hidden sectors, and fsck -n run here on the partition's bytes.
# A card that honours discard and one that ignores it are told apart; a
# fake card is formatted to its real size, given or (--size real) from
# its capacity check in the history; a card without
# --destroy-data, a mounted card and a card another job holds are
# refused with their sha256 unchanged. --bench measures the card after
# the format and sets it beside its last benchmark in the history.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"
command -v mkfs.fat > /dev/null && command -v fsck.fat > /dev/null || skip_all "dosfstools is not installed"
command -v mkfs.exfat > /dev/null && command -v fsck.exfat > /dev/null || skip_all "exfatprogs is not installed"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-format-XXXXXX)
export XDG_DATA_HOME=$work/xdg
# The kernel here may show no partitions (no MBR support, or a loop
# device without --partscan): SIMCARD_PARTSCAN asks for them anyway.
export SIMCARD_PARTSCAN=1
cards=()
windows=()
holder=
cleanup () {
  [ -n "$holder" ] && kill "$holder" 2> /dev/null
  umount "$work/mnt" 2> /dev/null
  for w in "${windows[@]}"; do losetup -d "$w" 2> /dev/null; done
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/mnt"

fast=(--set write.bandwidth-mb-s=400 --set read.bandwidth-mb-s=800)

card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2> /dev/null
}

card_sum () { sha256sum "$SIMCARD_DEV" | cut -d' ' -f1; }

# read_layout DEVICE: the card's partition and file system, read from
# the card (tests/lib/read-layout.py).
read_layout () { python3 "$here/lib/read-layout.py" "$1"; }

# fsck_here DEVICE START LENGTH FSCK: the file system checked by this
# test itself, through a loop device over the partition's bytes.
fsck_here () {
  local w rc
  w=$(losetup -f --show -r -o "$2" --sizelimit "$3" "$1") || return 1
  windows+=("$w")
  "$4" -n "$w" > "$work/fsck.out" 2>&1
  rc=$?
  losetup -d "$w"
  return $rc
}

MiB=$((1024 * 1024))
GiB=$((1024 * MiB))

# format_card NAME SIZE [FORMAT OPTIONS…]: formats the card, reads it back.
format_card () {
  local name=$1; shift
  "$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data --json "$@" > "$work/$name.json" 2> "$work/$name.err"
  rc=$?
  check "$name: formatted (status 0)" test $rc -eq 0
  [ $rc -eq 0 ] || sed 's/^/# /' "$work/$name.err"
  eval "$(read_layout "$SIMCARD_DEV")"
  echo "# $name: start $start, length $length, type $type, $fs, cluster $cluster, hidden $hidden, label '$label'"
  check "$name: one partition, on a 4 MiB boundary" test $((start % (4 * MiB))) -eq 0 -a "$start" -gt 0 -a "$others_empty" = 1
  check "$name: the boot sector knows where its partition starts" test "$hidden" -eq "$start"
  check "$name: the partition ends on the card" test $((start + length)) -le "$SIMCARD_SIZE"
  check "$name: the data area (clusters) starts on the boundary unit" json_check "$work/$name.json" \
    "$data % r['format']['boundary_bytes'] == 0"
  check "$name: the document says what the card holds" json_check "$work/$name.json" \
    "r['kind'] == 'format' and r['format']['file_system'] == '$fs' and r['format']['partition_start'] == $start \
     and r['format']['partition_bytes'] == $length and r['format']['cluster_bytes'] == $cluster and r['format']['fsck_clean']"
}

# --- 256 MiB: an SDSC card, FAT16 with 16 KiB clusters.
card good-a1 --size 256MiB -- "${fast[@]}" || skip_all "no simulated card here (see tests/simcard)"
small_dev=$SIMCARD_DEV
dd if=/dev/urandom of="$SIMCARD_DEV" bs=1M count=8 oflag=direct status=none

before=$(card_sum)
"$CARDMARK_CLI" format "$SIMCARD_DEV" > "$work/out" 2> "$work/err"
check "without --destroy-data it is refused as a usage error (status 2)" test $? -eq 2
check "the message says how to go ahead" grep -q -- "--destroy-data" "$work/err"
"$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data --label "FAR TOO LONG A LABEL" > "$work/out" 2> "$work/err"
check "a label no file system takes is a usage error (status 2)" test $? -eq 2
"$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data --size 1GiB > "$work/out" 2> "$work/err"
check "a --size larger than the card is refused (status 1)" test $? -eq 1
"$CARDMARK_CLI" format > "$work/out" 2> "$work/err"
check "no DEVICE is a usage error (status 2)" test $? -eq 2
check "the refused card is unchanged (sha256)" test "$(card_sum)" = "$before"

# Another job holds the card: its lock (cm-card-lock.c) is taken here.
lock=/run/lock/cardmark-block-$((16#$(stat -c %t "$SIMCARD_DEV")))-$((16#$(stat -c %T "$SIMCARD_DEV"))).lock
python3 -c 'import fcntl, sys, time
f = open(sys.argv[1], "a")
fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[2], "w").close()
time.sleep(600)' "$lock" "$work/held" &
holder=$!
while [ ! -e "$work/held" ] && kill -0 "$holder" 2> /dev/null; do sleep 0.05; done
"$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data > "$work/out" 2> "$work/err"
check "a card another job holds is refused (status 1)" test $? -eq 1
check "the message says the card is busy" grep -qi "busy" "$work/err"
kill "$holder"; wait "$holder" 2> /dev/null; holder=
check "the held card is unchanged (sha256)" test "$(card_sum)" = "$before"

format_card sdsc --label SMALL
check "sdsc: FAT16 (the SDSC table)" test "$fs" = fat16 -a "$type" = 6
check "sdsc: 16 KiB clusters" test "$cluster" -eq 16384
check "sdsc: the label given" test "$label" = SMALL
check "sdsc: fsck.fat -n finds it clean" fsck_here "$SIMCARD_DEV" "$start" "$length" fsck.fat
check "sdsc: the card honoured the discard" json_check "$work/sdsc.json" \
  "r['format']['discard'] == 'honoured' and r['format']['discard_samples'] > 0"
check "sdsc: its outcome is Formatted" json_check "$work/sdsc.json" "'FAT16' in r['summary']"
check "the format is kept in the history" grep -q '"kind" *: *"format"' "$XDG_DATA_HOME"/cardmark/history/*.json

# On a terminal the progress line gives the erase's time left, measured
# from the pieces discarded so far (script(1) gives the CLI a terminal).
if command -v script > /dev/null; then
  script -qec "\"$CARDMARK_CLI\" format \"$SIMCARD_DEV\" --destroy-data" /dev/null > "$work/tty" 2>&1
  check "on a terminal the format finishes (status 0)" test $? -eq 0
  check "its progress gives the erase's time left" grep -aq "Erasing the card .*%  .* left" "$work/tty"
else
  skip "no script(1) to give the CLI a terminal"
fi

# A mounted card is refused, untouched (mounted read-only).
if command -v mkfs.ext4 > /dev/null && mkfs.ext4 -q -O ^has_journal "$SIMCARD_DEV" &&
   before=$(card_sum) && mount -o ro "$SIMCARD_DEV" "$work/mnt"; then
  "$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data > "$work/out" 2> "$work/err"
  check "a mounted card is refused (status 1)" test $? -eq 1
  check "the message says to unmount it" grep -qi "unmount" "$work/err"
  umount "$work/mnt"
  check "the mounted card is unchanged (sha256)" test "$(card_sum)" = "$before"
else
  skip "no ext4 to mount a card with"
fi

# --- --bench: a quick benchmark after the format, beside the card's last
# one in the history (a raw benchmark of this card made first).
CARDMARK_TEST_PLAN=tiny "$CARDMARK_CLI" bench "$small_dev" --raw --allow-write --save --json > "$work/before.json" 2> "$work/before.err"
check "bench: a benchmark of the card kept in the history" test $? -eq 0
sum=$(card_sum)
CARDMARK_TEST_PLAN=tiny "$CARDMARK_CLI" format "$small_dev" --destroy-data --bench --json > "$work/bench.json" 2> "$work/bench.err"
check "bench: formatted and measured (status 0)" test $? -eq 0
check "bench: the benchmark after the erase is the document's tests" json_check "$work/bench.json" \
  "any(t['name'] == 'seq-write' and t['mb_per_s'] > 0 for t in r['tests'])"
check "bench: beside it, the card's benchmark before, from the history" python3 - "$work/before.json" "$work/bench.json" <<'PY'
import json, sys
before = json.load(open(sys.argv[1]))
after = json.load(open(sys.argv[2]))
was = {t['name']: t['mb_per_s'] for t in before['tests']}['seq-write']
kept = after['format']['bench']['before']['seq_write_mb_per_s']
print(f"# seq-write: {was} MB/s before (the benchmark), {kept} MB/s kept beside the format")
sys.exit(0 if abs(kept - was) <= 1e-6 * max(1, was) else 1)
PY
eval "$(read_layout "$small_dev")"
check "bench: the benchmark left the file system clean" fsck_here "$small_dev" "$start" "$length" fsck.fat
CARDMARK_TEST_PLAN=tiny "$CARDMARK_CLI" format "$small_dev" --destroy-data --bench > "$work/bench.txt" 2> "$work/bench.err"
sed 's/^/# /' "$work/bench.txt"
check "bench: the report says it before and after" grep -Eq \
  "^Sequential write: [0-9.]+ MB/s before, [0-9.]+ MB/s after$" "$work/bench.txt"

# --- A card that ignores discard: the data written before is still there.
card good-a1 --size 256MiB -- "${fast[@]}" --set card.ignore-discard=true
check "the card ignores discards (model)" test "$SIMCARD_IGNORE_DISCARD" = 1
format_card ignoring
check "ignoring: the document says the card ignored the discard" json_check "$work/ignoring.json" \
  "r['format']['discard'] == 'ignored'"
check "ignoring: the card was asked (stats)" grep -q "^discards=[1-9]" "$SIMCARD_DIR/mnt/stats"
check "ignoring: fsck.fat -n finds it clean" fsck_here "$SIMCARD_DEV" "$start" "$length" fsck.fat

# --- 4 GiB: SDHC, FAT32 with 32 KiB clusters.
card good-a1 --size 4GiB -- "${fast[@]}"
format_card sdhc --label "CARD 4G"
check "sdhc: FAT32 with LBA" test "$fs" = fat32 -a "$type" = 12
check "sdhc: 32 KiB clusters (at least, from 4 GB up)" test "$cluster" -ge 32768
check "sdhc: the label given" test "$label" = "CARD 4G"
check "sdhc: fsck.fat -n finds it clean" fsck_here "$SIMCARD_DEV" "$start" "$length" fsck.fat

# --- 34 GiB (sparse): SDXC, exFAT with 128 KiB clusters or more.
card good-a1 --size 34GiB -- "${fast[@]}"
format_card sdxc --label "BIG CARD"
check "sdxc: exFAT" test "$fs" = exfat -a "$type" = 7
check "sdxc: 128 KiB clusters or more" test "$cluster" -ge 131072
check "sdxc: fsck.exfat -n finds it clean" fsck_here "$SIMCARD_DEV" "$start" "$length" fsck.exfat
check "the 34 GiB card's backing file stays sparse" test "$(du -k "$SIMCARD_DIR/backing.img" | cut -f1)" -lt $((256 * 1024))

# --- A fake card (reports 2 GiB, stores 256 MiB) formatted to its real size.
card fake-8x --size 2GiB -- "${fast[@]}"
format_card fake --size "$SIMCARD_REAL_SIZE"
check "fake: the partition ends where the storage does" test $((start + length)) -le "$SIMCARD_REAL_SIZE"
check "fake: within one boundary unit of it" json_check "$work/fake.json" \
  "$SIMCARD_REAL_SIZE - ($start + $length) < max(r['format']['boundary_bytes'], r['format']['cluster_bytes']) \
   and r['format']['used_bytes'] == $SIMCARD_REAL_SIZE and r['format']['device_bytes'] == $SIMCARD_SIZE"
check "fake: fsck.fat -n finds it clean" fsck_here "$SIMCARD_DEV" "$start" "$length" fsck.fat

# --- The same card formatted to the real size its capacity check found,
# read from the history (--size real).
sum=$(card_sum)
"$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data --size real > /dev/null 2> "$work/real-unknown.err"
check "real: refused while no check in the history knows its real size (status 1)" test $? -eq 1
check "real: and says how to get the size" file_says "Check its capacity now, or give --size with a number" "$work/real-unknown.err"
check "real: the refused card is unchanged" test "$(card_sum)" = "$sum"
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" --json > "$work/probe.json"
check "real: the capacity check calls it fake (status 4)" test $? -eq 4
good=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["last_good_bytes"])' "$work/probe.json")
echo "# the capacity check: data kept up to $good bytes (the card stores $SIMCARD_REAL_SIZE)"
format_card real --size real
check "real: laid out to what the capacity check found kept data" json_check "$work/real.json" \
  "r['format']['used_bytes'] == $good and r['format']['device_bytes'] == $SIMCARD_SIZE"
check "real: the partition ends where the storage does" test $((start + length)) -le "$SIMCARD_REAL_SIZE"
check "real: fsck.fat -n finds it clean" fsck_here "$SIMCARD_DEV" "$start" "$length" fsck.fat
check "real: the document says what proved the check was of this card" json_check "$work/real.json" \
  "r['format']['real_size_proof'] == 'never-left-reader'"

# --- Another card of the same announced size, genuine, behind the same
# loop device: the fake card's check is not its size (issue 47).
fake_dev=$SIMCARD_DEV
"$here/simcard/simcard-down" "$SIMCARD_DIR"
SIMCARD_LOOP=$fake_dev card good-a1 --size 2GiB -- "${fast[@]}" || card good-a1 --size 2GiB -- "${fast[@]}" ||
  not_ok "a second card comes up"
if [ "$SIMCARD_DEV" != "$fake_dev" ]; then
  skip "the second card came up as $SIMCARD_DEV, not $fake_dev: nothing to confuse"
else
  sum=$(card_sum)
  "$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data --size real > /dev/null 2> "$work/real-other.err"
  check "another card: --size real is refused (status 1)" test $? -eq 1
  check "another card: nothing proves the check was of it" file_says "Nothing in the history is proven to be of the card in $SIMCARD_DEV" "$work/real-other.err"
  check "another card: and it says how to get the size" file_says "Check its capacity now, or give --size with a number" "$work/real-other.err"
  check "another card: unchanged" test "$(card_sum)" = "$sum"
fi

# --- A check that found the card whole is not "no check found where its
# storage ends".
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2>&1
check "whole: the capacity check finds it genuine" test $? -eq 0
sum=$(card_sum)
"$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data --size real > /dev/null 2> "$work/real-whole.err"
check "whole: --size real is refused (status 1)" test $? -eq 1
check "whole: it says the check found it whole" file_says "found it whole" "$work/real-whole.err"
check "whole: not that no check found where its storage ends" bash -c "! grep -q 'found where its storage ends' '$work/real-whole.err'"
check "whole: unchanged" test "$(card_sum)" = "$sum"

# --- A card another program holds open is not formatted.
exec 3< "$SIMCARD_DEV"
"$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/held.err"
rc=$?
exec 3<&-
check "held open: refused (status 1, got $rc)" test "$rc" -eq 1
check "held open: it names the program" file_says "Another program (bash, process $$) has $SIMCARD_DEV open" "$work/held.err"
check "held open: unchanged" test "$(card_sum)" = "$sum"

# --- A reader that takes the first discard and refuses the rest: the
# erase stops, the format goes on (issue 47).
card good-a1 --size 64MiB -- "${fast[@]}" --set card.refuse-discard-after=1
"$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data > "$work/refused.out" 2> "$work/refused.err"
check "discard refused part-way: formatted (status 0)" test $? -eq 0
check "discard refused part-way: it says not erased, and after how much" \
  file_says "Not erased: the reader refused the discard after [0-9.]*.[kMG]B" "$work/refused.out"
saved=$(sed -n 's/^Saved to //p' "$work/refused.err")
check "discard refused part-way: the document says so" json_check "$saved" \
  "r['format']['discard'] == 'not-supported' and r['format']['discard_refused_after_bytes'] > 0 \
   and r['format']['fsck_clean']"
check "discard refused part-way: the card took the first discard" \
  test "$(sed -n 's/^discards=//p' "$SIMCARD_DIR/mnt/stats")" -ge 1
eval "$(read_layout "$SIMCARD_DEV")"
check "discard refused part-way: the card has its partition and file system" test "$start" -gt 0 -a -n "$fs"
# Where the kernel shows no partitions the file system is made through a
# loop device over the partition's bytes, gone after: never "the partition".
grep '^Partition:' "$work/refused.out" | sed 's/^/# /'
if json_check "$saved" "r['format']['partition_window']" 2> /dev/null; then
  check "a temporary loop device is not named as the partition" \
    bash -c "grep '^Partition:' '$work/refused.out' | grep -qv /dev/"
else
  check "the partition is named by the kernel's name" \
    bash -c "grep '^Partition:' '$work/refused.out' | grep -q '${SIMCARD_DEV}p1'"
fi

done_testing
