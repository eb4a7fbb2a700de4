#!/bin/bash
# cli-list.sh — cardmark-cli list and info against the real udisksd, with
# loop devices over temporary files standing in for cards.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

[ "$(id -u)" = 0 ] || skip_all "needs root to attach loop devices and start udisksd"
[ -e /dev/loop-control ] || skip_all "no loop device support in this kernel"

reason=$("$(dirname "$0")/env/services-up" 2>&1)
case $? in
  0) ;;
  77) skip_all "$reason" ;;
  *) echo "Bail out! services-up: $reason"; exit 1 ;;
esac

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-list-XXXXXX)
loops=()
cleanup () {
  umount "$work/mnt" 2>/dev/null
  for l in "${loops[@]}"; do losetup -d "$l" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

# listed_within SECONDS DEVICE: a new process sees the device only once
# udisksd has taken it in; give it a moment.
listed_within () {
  local deadline=$((SECONDS + $1))
  while [ $SECONDS -le $deadline ]; do
    "$CARDMARK_CLI" list --show-loop --json > "$work/list.json" 2> "$work/err" &&
      json_check "$work/list.json" 'any(d["device"] == "'"$2"'" for d in r)' 2> /dev/null && return 0
    sleep 0.1
  done
  return 1
}

head -c $((12 * 1024 * 1024)) /dev/urandom > "$work/card.img"
size=$(stat -c %s "$work/card.img")
dev=$(losetup -f --show "$work/card.img") || skip_all "losetup failed"
loops+=("$dev")

check "list --show-loop shows a new loop device" listed_within 5 "$dev"
pick='[d for d in r if d["device"] == "'"$dev"'"][0]'
check "its size is the size of its backing file" json_check "$work/list.json" "$pick[\"size_bytes\"] == $size"
check "it is a loop reader, with media, writable, unmounted, not the system" json_check "$work/list.json" \
  "$pick[\"reader\"] == 'loop' and $pick[\"has_media\"] and not $pick[\"read_only\"] and not $pick[\"mounted\"] and $pick[\"mount_points\"] == [] and not $pick[\"system\"]"
check "a loop device has no USB speed" json_check "$work/list.json" "$pick[\"usb_speed_mbps\"] is None"
check "a card without a file system has no volume label" json_check "$work/list.json" "$pick[\"volume_label\"] is None"
check "every entry has every key" json_check "$work/list.json" \
  'all(set(d) >= {"device","name","size_bytes","read_only","mounted","mount_points","system","reader","usb_speed_mbps","has_media"} for d in r)'

"$CARDMARK_CLI" list --json > "$work/plain.json"
check "list without --show-loop exits 0" test $? -eq 0
check "list without --show-loop hides loop devices" json_check "$work/plain.json" 'not any(d["reader"] == "loop" for d in r)'

"$CARDMARK_CLI" list --show-loop > "$work/table"
check "the table names the device" grep -q "^$dev " "$work/table"

"$CARDMARK_CLI" info "$dev" --json > "$work/info.json"
check "info exits 0" test $? -eq 0
check "info --json describes the device" json_check "$work/info.json" \
  "r[\"device\"] == '$dev' and r[\"size_bytes\"] == $size and r[\"reader\"] == 'loop'"
check "info --json says why the card registers are unknown" json_check "$work/info.json" \
  'r["card"]["registers_available"] is False and len(r["card"]["unavailable_reason"]) > 0'
"$CARDMARK_CLI" info "$dev" > "$work/info.txt"
check "info prints the device" grep -q "$dev" "$work/info.txt"

# A read-only loop device.
cp "$work/card.img" "$work/ro.img"
rodev=$(losetup -f --show -r "$work/ro.img")
loops+=("$rodev")
listed_within 5 "$rodev"
"$CARDMARK_CLI" info "$rodev" --json > "$work/ro.json"
check "a read-only device is reported read-only" json_check "$work/ro.json" 'r["read_only"] is True'

# A mounted one.
truncate -s 32M "$work/fs.img"
mkfs.ext4 -q -L CARDMARK-FS "$work/fs.img"
fsdev=$(losetup -f --show "$work/fs.img")
loops+=("$fsdev")
mkdir "$work/mnt"
mount "$fsdev" "$work/mnt"
listed_within 5 "$fsdev"
"$CARDMARK_CLI" info "$fsdev" --json > "$work/fs.json"
check "a mounted device is reported mounted, with its mount point" json_check "$work/fs.json" \
  'r["mounted"] is True and r["mount_points"] == ["'"$work/mnt"'"] and r["system"] is False'
"$CARDMARK_CLI" info "$work/mnt" --json > "$work/folder.json"
check "info on a folder finds the device holding it" json_check "$work/folder.json" 'r["device"] == "'"$fsdev"'"'
check "info --json gives the file system's volume label" json_check "$work/fs.json" 'r["volume_label"] == "CARDMARK-FS"'
"$CARDMARK_CLI" info "$fsdev" > "$work/fs.txt"
check "info shows the volume label" grep -q "CARDMARK-FS" "$work/fs.txt"
"$CARDMARK_CLI" list --show-loop > "$work/fs-table"
check "list shows the volume label after the name" grep -q "^$fsdev .*“CARDMARK-FS”" "$work/fs-table"

# Errors.
"$CARDMARK_CLI" info /dev/cardmark-no-such-device > /dev/null 2> "$work/err"
check "info on an unknown path exits 1" test $? -eq 1
check "info on an unknown path says what to do" \
  grep -qF "No card or drive at /dev/cardmark-no-such-device. Run 'cardmark-cli list' to see what is connected." "$work/err"

"$CARDMARK_CLI" info > /dev/null 2>&1
check "info without a target is a usage error" test $? -eq 2
"$CARDMARK_CLI" list extra > /dev/null 2>&1
check "list with an argument is a usage error" test $? -eq 2

DBUS_SYSTEM_BUS_ADDRESS=unix:path=$work/no-bus "$CARDMARK_CLI" list > /dev/null 2> "$work/err"
check "list without udisks2 exits 1" test $? -eq 1
check "list without udisks2 says how to get it" grep -qF "sudo apt install udisks2" "$work/err"
DBUS_SYSTEM_BUS_ADDRESS=unix:path=$work/no-bus "$CARDMARK_CLI" info "$dev" > /dev/null 2> "$work/err"
check "info without udisks2 exits 1 with the same advice" \
  bash -c "test $? -eq 1 && grep -qF 'The udisks2 service is not running' '$work/err'"

done_testing
