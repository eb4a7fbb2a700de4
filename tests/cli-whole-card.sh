#!/bin/bash
# cli-whole-card.sh — every kind that writes a whole device takes a whole
# card, never a partition and never a device on a disk this computer
# uses (issue 47): a disk image with two partitions on a loop device
# (losetup -P), its first partition mounted (read-only, so nothing
# writes to it). format, verify --destroy-data, endure, probe-capacity
# and bench --allow-write refuse the second partition and the whole
# disk, naming the disk, with status 1 (the target refused, as a mounted
# card is); a partition of a disk nothing uses is refused as a partition;
# with the first partition at /boot in a private mount namespace the
# second is refused as on the disk /boot is on. The image's sha256 is
# the same before and after.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

[ "$(id -u)" = 0 ] || skip_all "loop devices need root"
command -v sfdisk > /dev/null && command -v mkfs.ext4 > /dev/null || skip_all "sfdisk and mkfs.ext4 are needed"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-whole-XXXXXX)
export XDG_DATA_HOME=$work/xdg
# If a check were let through, it would be short.
export CARDMARK_TEST_PLAN=tiny
cleanup () {
  umount "$work/mnt" 2> /dev/null
  # disk runs in a subshell: the loop devices it attached are listed here.
  [ -f "$work/loops" ] && while read -r l; do losetup -d "$l" 2> /dev/null; done < "$work/loops"
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/mnt"

# disk NAME: a 64 MiB image with two partitions, attached with its
# partitions shown; prints the loop device.
disk () {
  local img=$work/$1.img dev
  truncate -s 64MiB "$img"
  printf 'label: dos\nstart=2048, size=32768, type=83\nstart=34816, type=83\n' | sfdisk -q "$img" || return 1
  dev=$(losetup -f --show -P "$img") || return 1
  echo "$dev" >> "$work/loops"
  udevadm settle 2> /dev/null
  # A kernel that reads no MBR itself is told the partitions (BLKPG);
  # they are partitions all the same, by sysfs's word.
  [ -b "${dev}p1" ] || { partx -a "$dev" && udevadm settle 2> /dev/null; }
  [ -b "${dev}p1" ] && [ -b "${dev}p2" ] || return 1
  mkfs.ext4 -q "${dev}p1" || return 1
  echo "$dev"
}

dev=$(disk system) || skip_all "no partitioned loop device here"
mount -o ro "${dev}p1" "$work/mnt" || skip_all "cannot mount the image's first partition"
sum_before=$(sha256sum "$work/system.img" | cut -d' ' -f1)

# refused WHAT TARGET SAYS ARGS…: the command, one TARGET, refused with
# status 1 and a sentence saying SAYS (a pattern).
refused () {
  local what=$1 target=$2 says=$3 rc
  shift 3
  "$CARDMARK_CLI" "$@" > "$work/out" 2> "$work/err"
  rc=$?
  check "$what $target is refused (status 1, got $rc)" test "$rc" -eq 1
  check "$what $target: the refusal says \"$says\"" file_says "$says" "$work/err"
}

# The partition: refused as on the disk a mounted partition is on; the
# whole disk: refused as mounted (it was before, and still is).
for target in "${dev}p2" "$dev"; do
  if [ "$target" = "$dev" ]; then says="$dev\(p1\)\? is mounted"; else says="${dev}p2 is on $dev, a disk this computer uses: ${dev}p1 is mounted at $work/mnt"; fi
  refused format "$target" "$says" format "$target" --destroy-data
  refused verify "$target" "$says" verify "$target" --destroy-data
  refused endure "$target" "$says" endure "$target" --destroy-data --rounds 1
  refused probe-capacity "$target" "$says" probe-capacity "$target"
  refused bench "$target" "$says" bench "$target" --raw --allow-write
done
sync
check "the disk image is unchanged" test "$(sha256sum "$work/system.img" | cut -d' ' -f1)" = "$sum_before"

# A partition of a disk nothing uses is still no whole card.
spare=$(disk spare) || skip_all "no second partitioned loop device here"
spare_before=$(sha256sum "$work/spare.img" | cut -d' ' -f1)
for kind in "format ${spare}p1 --destroy-data" "verify ${spare}p2 --destroy-data" "endure ${spare}p2 --destroy-data --rounds 1" \
            "probe-capacity ${spare}p1" "bench ${spare}p2 --raw --allow-write"; do
  set -- $kind
  refused "$1" "$2" "$2 is a partition of $spare, not a whole card" $kind
done
sync
check "the unused disk's image is unchanged" test "$(sha256sum "$work/spare.img" | cut -d' ' -f1)" = "$spare_before"

# The first partition at /boot, in a mount namespace of this test's own.
if unshare -m true 2> /dev/null; then
  unshare -m bash -c '
    mount --make-rprivate / && mount -o ro "$1p1" /boot || exit 77
    "$2" format "$1p2" --destroy-data' _ "$dev" "$CARDMARK_CLI" > "$work/out" 2> "$work/err"
  rc=$?
  if [ "$rc" = 77 ]; then
    skip "cannot mount at /boot in a private mount namespace"
  else
    check "with p1 at /boot, p2 is refused (status 1, got $rc)" test "$rc" -eq 1
    check "it names the disk and /boot" file_says "on $dev, a disk this computer uses: ${dev}p1 is mounted at /boot" "$work/err"
  fi
else
  skip "unshare -m is not allowed here"
fi
sync
check "the disk image is still unchanged" test "$(sha256sum "$work/system.img" | cut -d' ' -f1)" = "$sum_before"

done_testing
