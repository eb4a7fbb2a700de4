#!/bin/bash
# cli-format-user.sh — cardmark-cli format as a user who is not root
# (issue 37). The card is opened through UDisks (polkit allows the test's
# user, by a rule of this test's own), erased, given its table as the SD
# File System Specification lays it out, and UDisks makes and checks the
# file system. Read back from the card itself: the partition's start
# (aligned) and type, the file system's type, cluster size, hidden
# sectors and label; the document and the words say the cluster size is
# mkfs's choice where it is not the specification's, and a file system
# UDisks cannot check (exFAT here) is said to be not checked — never
# "clean". A refusal (no --destroy-data; a user polkit refuses) leaves
# the card's sha256 unchanged.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards and a test user need root"
command -v useradd > /dev/null && command -v setpriv > /dev/null || skip_all "useradd or setpriv is missing"
command -v pkcheck > /dev/null && [ -d /etc/polkit-1/rules.d ] || skip_all "polkit (pkcheck, /etc/polkit-1/rules.d) is missing"
command -v fsck.fat > /dev/null && command -v fsck.exfat > /dev/null || skip_all "dosfstools or exfatprogs is missing"
command -v blkid > /dev/null || skip_all "blkid is missing"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-format-user-XXXXXX)
chmod 755 "$work"
cards=()
windows=()
user=
rule=
opener=
cleanup () {
  [ -n "$rule" ] && rm -f "$rule"
  [ -n "$user" ] && userdel "$user" 2> /dev/null
  [ -n "$opener" ] && userdel "$opener" 2> /dev/null
  for w in "${windows[@]}"; do losetup -d "$w" 2> /dev/null; done
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT

useradd -M -d /nonexistent -s /bin/sh cmfmtuser$$ || skip_all "useradd failed"
user=cmfmtuser$$
# The user's own copy of the CLI, history and home.
mkdir -p "$work/bin" "$work/home"
cp "$CARDMARK_CLI" "$work/bin/cardmark-cli"
chmod 755 "$work/bin" "$work/bin/cardmark-cli"
chown "$user:$user" "$work/home"
as_user () {
  (cd / && HOME=$work/home XDG_DATA_HOME=$work/home/xdg \
    setpriv --reuid="$user" --regid="$user" --clear-groups -- "$@")
}

# A second user, whom polkit lets open the card and nothing more.
useradd -M -d /nonexistent -s /bin/sh cmfmtopen$$ && opener=cmfmtopen$$
as_opener () {
  (cd / && HOME=$work/home XDG_DATA_HOME=$work/opener-xdg \
    setpriv --reuid="$opener" --regid="$opener" --clear-groups -- "$@")
}

# polkit lets this user (and no other) do what UDisks asks of it, as an
# administrator's rule or an agent's "yes" would on a desktop.
rule=/etc/polkit-1/rules.d/49-cardmark-test-$user.rules
cat > "$rule" <<EOF
polkit.addRule(function(action, subject) {
  if (action.id.indexOf("org.freedesktop.udisks2.") == 0 && subject.user == "$user")
    return polkit.Result.YES;
  if (action.id.indexOf("org.freedesktop.udisks2.open-device") == 0 && subject.user == "$opener")
    return polkit.Result.YES;
});
EOF
allowed () { as_user sh -c 'exec pkcheck --action-id org.freedesktop.udisks2.open-device --process $$' > /dev/null 2>&1; }
# polkitd reads the rule when it sees it: up to 30 s.
for _ in $(seq 300); do allowed && break; sleep 0.1; done
allowed || skip_all "polkitd did not take the test's rule"

fast=(--set write.bandwidth-mb-s=400 --set read.bandwidth-mb-s=800)

card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2> /dev/null
}

card_sum () { sha256sum "$SIMCARD_DEV" | cut -d' ' -f1; }
read_layout () { python3 "$here/lib/read-layout.py" "$1"; }

# probe START KEY: blkid's own reading of the file system at START.
probe () { blkid -p -O "$1" -s "$2" -o value "$SIMCARD_DEV"; }

# fsck_here START LENGTH FSCK: the file system checked by this test
# itself, through a read-only loop device over the partition's bytes.
fsck_here () {
  local w rc
  w=$(losetup -f --show -r -o "$1" --sizelimit "$2" "$SIMCARD_DEV") || return 1
  windows+=("$w")
  "$3" -n "$w" > "$work/fsck.out" 2>&1
  rc=$?
  losetup -d "$w"
  return $rc
}

# mbr_type FS: the type the partition of a file system FS has in the MBR.
mbr_type () { case $1 in fat12) echo 1 ;; fat16) echo 6 ;; fat32) echo 12 ;; exfat) echo 7 ;; esac; }

MiB=$((1024 * 1024))

# format_as_user NAME LABEL [OPTIONS…]: the card formatted by the user,
# read back.
format_as_user () {
  local name=$1 asked_label=$2
  shift 2
  as_user "$work/bin/cardmark-cli" format "$SIMCARD_DEV" --destroy-data --label "$asked_label" "$@" \
    > "$work/$name.out" 2> "$work/$name.err"
  rc=$?
  check "$name: the user formatted the card (status 0)" test $rc -eq 0
  [ $rc -eq 0 ] || sed 's/^/# /' "$work/$name.err" "$work/$name.out"
  doc=$(ls -t "$work"/home/xdg/cardmark*/history/*.json 2> /dev/null | head -1)
  cp "$doc" "$work/$name.json" 2> /dev/null
  eval "$(read_layout "$SIMCARD_DEV")"
  echo "# $name: start $start, length $length, type $type, $fs, cluster $cluster, hidden $hidden, label '$label'"
  check "$name: one partition, on a 4 MiB boundary" test $((start % (4 * MiB))) -eq 0 -a "$start" -gt 0 -a "$others_empty" = 1
  check "$name: it is where the document says, as the specification lays it out" json_check "$work/$name.json" \
    "r['format']['made_by'] == 'udisks' and r['format']['partition_start'] == $start \
     and r['format']['partition_bytes'] == $length and $start % r['format']['boundary_bytes'] == 0"
  check "$name: the partition ends on the card" test $((start + length)) -le "$SIMCARD_SIZE"
  check "$name: its type in the MBR is the file system's ($fs)" test "$type" = "$(mbr_type "$fs")"
  check "$name: the document's file system and cluster size are the card's" json_check "$work/$name.json" \
    "r['format']['file_system'] == '$fs' and r['format']['cluster_bytes'] == $cluster"
  check "$name: blkid finds the same file system there" test "$(probe "$start" TYPE)" = "$([ "$fs" = exfat ] && echo exfat || echo vfat)"
  check "$name: with the label asked for" test "$(probe "$start" LABEL)" = "$asked_label"
  check "$name: the boot sector knows where its partition starts" test "$hidden" -eq "$start"
  check "$name: no loop device is left over the card" test -z "$(losetup -j "$SIMCARD_DEV")"
}

# --- 1 GiB: the specification asks for FAT16 with 16 KiB clusters;
# UDisks' mkfs.vfat chooses for itself.
card good-a1 --size 1GiB -- "${fast[@]}" || skip_all "no simulated card here (see tests/simcard)"
dd if=/dev/urandom of="$SIMCARD_DEV" bs=1M count=8 oflag=direct status=none

before=$(card_sum)
as_user "$work/bin/cardmark-cli" format "$SIMCARD_DEV" > "$work/out" 2> "$work/err"
check "without --destroy-data the user is refused (status 1)" test $? -eq 1
check "the refused card is unchanged (sha256)" test "$(card_sum)" = "$before"
# A user polkit does not allow: UDisks refuses to open the card.
(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$work/bin/cardmark-cli" format "$SIMCARD_DEV" \
   --destroy-data > "$work/out" 2> "$work/err")
check "a user polkit refuses gets status 1" test $? -eq 1
check "the message says permission was refused" grep -q "Permission to open the card was refused" "$work/err"
check "and the card is unchanged (sha256)" test "$(card_sum)" = "$before"

# Allowed to open the card but not to have UDisks make a file system:
# the erase and the table are done, and the words say so.
if [ -n "$opener" ]; then
  mkdir -p "$work/opener-xdg" && chown "$opener" "$work/opener-xdg"
  as_opener "$work/bin/cardmark-cli" format "$SIMCARD_DEV" --destroy-data > "$work/out" 2> "$work/err"
  check "a user UDisks may not make the file system for gets status 1" test $? -eq 1
  sed "s/^/# /" "$work/err"
  check "the message says UDisks failed, and what was done" \
    file_says "UDisks could not reach the partition: .*The card is erased and its partition table written" "$work/err"
  check "and no loop device is left over the card" test -z "$(losetup -j "$SIMCARD_DEV")"
else
  skip "a second user could not be made"
fi

format_as_user sdsc CMUSER
check "sdsc: UDisks' check ran and found it clean" json_check "$work/sdsc.json" \
  "r['format']['fsck_ran'] is True and r['format']['fsck_clean'] is True"
check "sdsc: fsck.fat -n here finds it clean too" fsck_here "$start" "$length" fsck.fat
check "sdsc: the CLI says UDisks checked it" grep -q "^Check: *clean (UDisks' check" "$work/sdsc.out"
# Whether mkfs's cluster size is the specification's decides the words.
if json_check "$work/sdsc.json" "r['format']['cluster_bytes'] != r['format']['asked_cluster_bytes'] or \
                                 r['format']['file_system'] != r['format']['asked_file_system']"; then
  check "sdsc: the document says the cluster size is mkfs's, not the specification's" json_check "$work/sdsc.json" \
    "any(\"mkfs's own choice, not the SD specification's\" in n for n in r['notes'])"
  check "sdsc: and so does the CLI" grep -q "mkfs's own choice, not the SD specification's" "$work/sdsc.out"
else
  check "sdsc: the document says mkfs chose the specification's cluster size" json_check "$work/sdsc.json" \
    "any('which is the one the SD specification asks for' in n for n in r['notes'])"
fi

# --- 34 GiB (sparse): exFAT, which UDisks here cannot check; a quick
# benchmark after it all the same.
card good-a1 --size 34GiB -- "${fast[@]}" || skip_all "no simulated card here (see tests/simcard)"
CARDMARK_TEST_PLAN=tiny format_as_user sdxc CMXC --bench
check "sdxc: exFAT" test "$fs" = exfat
check "sdxc: the document says it was not checked, and not clean" json_check "$work/sdxc.json" \
  "r['format']['fsck_ran'] is False and r['format']['fsck_clean'] is False and r['format']['fsck_output']"
check "sdxc: the CLI says it was not checked" grep -q "^Check: *not checked: " "$work/sdxc.out"
check "sdxc: and claims no clean check" test -z "$(grep -i "clean" "$work/sdxc.out")"
check "sdxc: the summary says its file system was not checked" grep -q "its file system was not checked" "$work/sdxc.out"
check "sdxc: fsck.exfat -n here finds what UDisks made clean" fsck_here "$start" "$length" fsck.exfat
check "sdxc: the benchmark after it measured the card" json_check "$work/sdxc.json" \
  "len(r['tests']) > 0 and all(t['mb_per_s'] > 0 or t.get('iops', 0) > 0 for t in r['tests']) and 'error' not in r['format']['bench']"

done_testing
