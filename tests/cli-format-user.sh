#!/bin/bash
# cli-format-user.sh — cardmark-cli format as a user who is not root
# (issue 37). The card is opened through UDisks (polkit allows the test's
# user, by a rule of this test's own), erased and given its table as the
# SD File System Specification lays it out; the file system is made by
# the same mkfs as root's on an image of the partition, checked there
# (fsck -n), copied onto the card and read back. Read back from the card
# itself and set beside what root's route makes of the same card: the
# partition's start and type, the file system's type, cluster size, data
# area, hidden sectors and label; fsck -n on the card's own bytes, here,
# also after an erase that left 0xFF or old data (a card that ignores
# the discard). Where no image can be made (no temporary folder), UDisks
# makes the file system, and the words say its mkfs chose. A refusal (no
# --destroy-data; a user polkit refuses) leaves the card's sha256
# unchanged. A format stopped (SIGINT, SIGTERM) while its image is
# copied onto a slow card ends stopped, says what state the card is in,
# saves nothing and leaves no image.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards and a test user need root"
command -v useradd > /dev/null && command -v setpriv > /dev/null || skip_all "useradd or setpriv is missing"
command -v pkcheck > /dev/null && [ -d /etc/polkit-1/rules.d ] || skip_all "polkit (pkcheck, /etc/polkit-1/rules.d) is missing"
command -v fsck.fat > /dev/null && command -v fsck.exfat > /dev/null || skip_all "dosfstools or exfatprogs is missing"
command -v blkid > /dev/null || skip_all "blkid is missing"
# UDisks opens the card for the user and polkit says whether it may: the
# test starts them itself, run alone or after any other test.
"$here/env/services-up" || skip_all "the system bus, udev and udisksd could not be started"

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
# The user's temporary folder, where the image is made (and must be gone
# after); USER_TMPDIR can point it elsewhere.
mkdir -p "$work/utmp"
chown "$user:$user" "$work/utmp"
as_user () {
  (cd / && HOME=$work/home XDG_DATA_HOME=$work/home/xdg TMPDIR=${USER_TMPDIR:-$work/utmp} \
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

# format_as_root NAME: the card formatted by root's route, read back.
format_as_root () {
  "$CARDMARK_CLI" format "$SIMCARD_DEV" --destroy-data --json > "$work/$1.json" 2> "$work/$1.err"
  rc=$?
  check "$1: root formatted the card (status 0)" test $rc -eq 0
  [ $rc -eq 0 ] || sed 's/^/# /' "$work/$1.err"
  eval "$(read_layout "$SIMCARD_DEV")"
  echo "# $1: start $start, length $length, type $type, $fs, cluster $cluster, data $data"
  root_layout="$start $length $type $fs $cluster $data"
}

# format_as_user NAME LABEL [OPTIONS…]: the card formatted by the user,
# read back. MADE_BY: the route expected (image, or udisks).
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
    "r['format']['made_by'] == '${MADE_BY:-image}' and r['format']['partition_start'] == $start \
     and r['format']['partition_bytes'] == $length and $start % r['format']['boundary_bytes'] == 0"
  check "$name: the partition ends on the card" test $((start + length)) -le "$SIMCARD_SIZE"
  check "$name: its type in the MBR is the file system's ($fs)" test "$type" = "$(mbr_type "$fs")"
  check "$name: the document's file system and cluster size are the card's" json_check "$work/$name.json" \
    "r['format']['file_system'] == '$fs' and r['format']['cluster_bytes'] == $cluster"
  check "$name: blkid finds the same file system there" test "$(probe "$start" TYPE)" = "$([ "$fs" = exfat ] && echo exfat || echo vfat)"
  check "$name: with the label asked for" test "$(probe "$start" LABEL)" = "$asked_label"
  check "$name: the boot sector knows where its partition starts" test "$hidden" -eq "$start"
  check "$name: no loop device is left over the card" test -z "$(losetup -j "$SIMCARD_DEV")"
  check "$name: no image is left in the user's temporary folder" test -z "$(ls -A "$work/utmp")"
  user_layout="$start $length $type $fs $cluster $data"
}

# image_checked NAME: made on an image, checked and read back, as the
# document and the CLI say; the specification's layout, as root's
# route made it on the same card; clean by fsck -n here too.
image_checked () {
  local name=$1 tool=fsck.fat
  [ "$fs" = exfat ] && tool=fsck.exfat
  check "$name: the same layout as root's route gives the card ($root_layout)" test "$user_layout" = "$root_layout"
  check "$name: the data area (clusters) starts on the boundary unit" json_check "$work/$name.json" \
    "$data % r['format']['boundary_bytes'] == 0"
  check "$name: fsck -n ran on the image and found it clean" json_check "$work/$name.json" \
    "r['format']['fsck_ran'] is True and r['format']['fsck_clean'] is True and r['format']['copied_bytes'] > 0"
  check "$name: the document names the partition as the kernel will, no loop device of the run" json_check \
    "$work/$name.json" "r['format']['partition'] == '${SIMCARD_DEV}p1' and not r['format']['partition_window']"
  check "$name: the CLI says it was checked and read back" \
    grep -q "^Check: *clean (fsck -n found nothing to mend; the card read back what was written)" "$work/$name.out"
  check "$name: and says nothing of UDisks' or mkfs's own choice" test -z "$(grep -i "UDisks made\|own choice\|not checked" "$work/$name.out")"
  check "$name: the summary says it is formatted, aligned, with nothing left unsaid" \
    grep -q "is formatted: .*, one partition aligned to the card\.$" "$work/$name.out"
  check "$name: $tool -n here finds the card's bytes clean" fsck_here "$start" "$length" "$tool"
  [ $? -eq 0 ] || sed 's/^/# /' "$work/fsck.out"
}

# --- 1 GiB: the specification asks for FAT16 with 16 KiB clusters.
card good-a1 --size 1GiB -- "${fast[@]}" || skip_all "no simulated card here (see tests/simcard)"
dd if=/dev/urandom of="$SIMCARD_DEV" bs=1M count=8 oflag=direct status=none

before=$(card_sum)
as_user "$work/bin/cardmark-cli" format "$SIMCARD_DEV" > "$work/out" 2> "$work/err"
check "without --destroy-data the user is refused (status 2, usage)" test $? -eq 2
check "the refused card is unchanged (sha256)" test "$(card_sum)" = "$before"
# A user polkit does not allow: UDisks refuses to open the card.
(cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$work/bin/cardmark-cli" format "$SIMCARD_DEV" \
   --destroy-data > "$work/out" 2> "$work/err")
check "a user polkit refuses gets status 1" test $? -eq 1
check "the message says permission was refused" grep -q "Permission to open the card was refused" "$work/err"
check "and the card is unchanged (sha256)" test "$(card_sum)" = "$before"

# Allowed to open the card and nothing more: the image route asks no
# more of UDisks, so the card is formatted all the same.
if [ -n "$opener" ]; then
  mkdir -p "$work/opener-xdg" "$work/opener-tmp" && chown "$opener" "$work/opener-xdg" "$work/opener-tmp"
  (cd / && HOME=$work/home XDG_DATA_HOME=$work/opener-xdg TMPDIR=$work/opener-tmp \
    setpriv --reuid="$opener" --regid="$opener" --clear-groups -- \
    "$work/bin/cardmark-cli" format "$SIMCARD_DEV" --destroy-data > "$work/out" 2> "$work/err")
  rc=$?
  check "a user polkit lets only open the card formats it all the same (status 0)" test $rc -eq 0
  [ $rc -eq 0 ] || sed "s/^/# /" "$work/err"
  check "and no loop device is left over the card" test -z "$(losetup -j "$SIMCARD_DEV")"
  check "and no image is left behind" test -z "$(ls -A "$work/opener-tmp")"
  # Where no image can be made, UDisks' route needs more than opening
  # the card: the erase and the table are done, and the words say so.
  (cd / && HOME=$work/home XDG_DATA_HOME=$work/opener-xdg TMPDIR=/nonexistent/cardmark \
    setpriv --reuid="$opener" --regid="$opener" --clear-groups -- \
    "$work/bin/cardmark-cli" format "$SIMCARD_DEV" --destroy-data > "$work/out" 2> "$work/err")
  check "without an image, a user UDisks may not make the file system for gets status 1" test $? -eq 1
  sed "s/^/# /" "$work/err"
  check "the message says UDisks failed, and what was done" \
    file_says "UDisks could not reach the partition: .*The card is erased and its partition table written" "$work/err"
  check "and no loop device is left over the card" test -z "$(losetup -j "$SIMCARD_DEV")"
else
  skip "a second user could not be made"
fi

format_as_root sdsc-root
format_as_user sdsc CMUSER
image_checked sdsc

# Where no image can be made (the temporary folder cannot be made),
# UDisks makes the file system: its mkfs's choice, said so.
USER_TMPDIR=/nonexistent/cardmark MADE_BY=udisks format_as_user fallback CMUSER
check "fallback: UDisks' check ran and found it clean" json_check "$work/fallback.json" \
  "r['format']['fsck_ran'] is True and r['format']['fsck_clean'] is True"
check "fallback: fsck.fat -n here finds it clean too" fsck_here "$start" "$length" fsck.fat
check "fallback: the CLI says UDisks checked it" grep -q "^Check: *clean (UDisks' check" "$work/fallback.out"
# Whether mkfs's cluster size is the specification's decides the words.
if json_check "$work/fallback.json" "r['format']['cluster_bytes'] != r['format']['asked_cluster_bytes'] or \
                                     r['format']['file_system'] != r['format']['asked_file_system']"; then
  check "fallback: the document says the cluster size is mkfs's, not the specification's" json_check "$work/fallback.json" \
    "any(\"mkfs's own choice, not the SD specification's\" in n for n in r['notes'])"
  check "fallback: and so does the CLI" grep -q "mkfs's own choice, not the SD specification's" "$work/fallback.out"
else
  check "fallback: the document says mkfs chose the specification's cluster size" json_check "$work/fallback.json" \
    "any('which is the one the SD specification asks for' in n for n in r['notes'])"
fi

# --- A card that does not keep what it is given: its blocks wear out
# after one write (then read back inverted), and the partition's head
# was written once before. The copy's read-back finds it, says so, and
# the format fails; no image is left.
card good-a1 --size 1GiB -- "${fast[@]}" --set wear.writes=1 --set wear.spread=0 || skip_all "no simulated card here (see tests/simcard)"
dd if=/dev/urandom of="$SIMCARD_DEV" bs=1M seek=4 count=12 oflag=direct status=none
as_user "$work/bin/cardmark-cli" format "$SIMCARD_DEV" --destroy-data > "$work/out" 2> "$work/err"
check "worn: the format fails (status 1)" test $? -eq 1
sed "s/^/# /" "$work/err"
check "worn: the message says the card did not keep the file system, and what to do" \
  file_says "The card did not keep the new file system: \(at its partition.s start\|.* into its partition\) it read back other bytes than were written.*capacity check" "$work/err"
check "worn: no image is left in the user's temporary folder" test -z "$(ls -A "$work/utmp")"

# --- 4 GiB (sparse) that ignores the discard: FAT32, whose FATs and
# root directory mkfs writes in full, so what the erase left (0xFF, then
# old data) is no fault on the card's bytes, where the image's holes
# were not copied.
card good-a1 --size 4GiB -- "${fast[@]}" --set card.ignore-discard=true || skip_all "no simulated card here (see tests/simcard)"
format_as_root sdhc-root
for old in ff data; do
  if [ $old = ff ]; then
    tr '\0' '\377' < /dev/zero | dd of="$SIMCARD_DEV" bs=1M count=64 iflag=fullblock oflag=direct status=none
  else
    dd if=/dev/urandom of="$SIMCARD_DEV" bs=1M count=64 oflag=direct status=none
  fi
  format_as_user "sdhc-$old" CMHC
  check "sdhc-$old: the card ignored the discard" json_check "$work/sdhc-$old.json" "r['format']['discard'] == 'ignored'"
  check "sdhc-$old: what the erase left is still on the card, past what was copied" \
    test "$(dd if="$SIMCARD_DEV" bs=1M skip=63 count=1 status=none | od -An -tx1 | tr -d ' \n' | cut -c1-8)" != 00000000
  image_checked "sdhc-$old"
done

# --- 34 GiB (sparse): exFAT, checked (UDisks could not check it here);
# a quick benchmark after it.
card good-a1 --size 34GiB -- "${fast[@]}" || skip_all "no simulated card here (see tests/simcard)"
format_as_root sdxc-root
CARDMARK_TEST_PLAN=tiny format_as_user sdxc CMXC --bench
check "sdxc: exFAT" test "$fs" = exfat
image_checked sdxc
check "sdxc: the benchmark after it measured the card" json_check "$work/sdxc.json" \
  "len(r['tests']) > 0 and all(t['mb_per_s'] > 0 or t.get('iops', 0) > 0 for t in r['tests']) and 'error' not in r['format']['bench']"

# --- Stopped while the image is copied onto the card (Ctrl-C, then a
# signal from elsewhere). The card's first writes go to its fast cache,
# which the erase's samples and the table fill (1 MiB of samples and the
# 4 MiB before the partition); every write after that, the copy's, goes
# at 50 kB/s, so the copy of a few dozen KiB takes seconds. The signal is
# sent once the CLI's progress line (read from a terminal) says the copy
# has begun.
copy_card=(--set write.bandwidth-mb-s=400 --set read.bandwidth-mb-s=800
           --set cache.size=5MiB --set cache.after-bandwidth-mb-s=0.05)
docs () { ls "$work"/home/xdg/cardmark*/history/*.json 2> /dev/null | wc -l; }
mkdir -p "$work/stoptmp"
chown "$user:$user" "$work/stoptmp"

# stop_in_copy SIGNAL: the user's format of a fresh card stopped by
# SIGNAL during the copy; its terminal in $work/stop-SIGNAL.tty.
stop_in_copy () {
  local sig=$1 tty=$work/stop-$1.tty pid= runner
  card good-a1 --size 256MiB -- "${copy_card[@]}" || return 1
  before_docs=$(docs)
  rm -f "$work/pid"
  script -qfec "echo \$\$ > '$work/pid'; cd / && exec env HOME='$work/home' XDG_DATA_HOME='$work/home/xdg' \
    TMPDIR='$work/stoptmp' setpriv --reuid='$user' --regid='$user' --clear-groups -- \
    '$work/bin/cardmark-cli' format '$SIMCARD_DEV' --destroy-data --json > '$work/stop-$sig.json'" \
    /dev/null > "$tty" 2>&1 &
  runner=$!
  # Until the copy's phase is on its line, or the run ends before it.
  while kill -0 $runner 2> /dev/null && ! grep -q "Writing the file system to the card" "$tty"; do sleep 0.05; done
  pid=$(cat "$work/pid" 2> /dev/null)
  in_copy=0
  grep -q "Writing the file system to the card" "$tty" && in_copy=1
  image_there=$(ls "$work"/stoptmp/cardmark-format-*/partition.img 2> /dev/null | wc -l)
  [ -n "$pid" ] && kill -"$sig" "$pid"
  wait $runner
  stop_rc=$?
}

for sig in INT TERM; do
  stop_in_copy $sig || { skip "no simulated card here (see tests/simcard)"; continue; }
  tty=$work/stop-$sig.tty
  check "SIG$sig in the copy: the copy had begun, its image in the private temporary folder" \
    test "$in_copy" = 1 -a "$image_there" = 1
  check "SIG$sig in the copy: the format ends stopped (status 5)" test "$stop_rc" -eq 5
  [ "$stop_rc" -eq 5 ] || tr '\r' '\n' < "$tty" | sed 's/^/# /'
  check "SIG$sig in the copy: it says it stopped, after the erase, and to format the card again" \
    file_says "The format was stopped after the card was erased: the card has no working file system. Format it again before you use it." "$tty"
  check "SIG$sig in the copy: and the stopped answer" file_says "Erase and format stopped before the end" "$tty"
  check "SIG$sig in the copy: nothing says formatted or clean" \
    test -z "$(grep -i "formatted\|clean\|Check:" "$tty" | grep -v "Erasing and formatting")"
  check "SIG$sig in the copy: no document is printed or saved, as for any kind stopped before a result" \
    test ! -s "$work/stop-$sig.json" -a "$(docs)" = "$before_docs"
  check "SIG$sig in the copy: the private temporary folder and its image are gone" test -z "$(ls -A "$work/stoptmp")"
  check "SIG$sig in the copy: no loop device is left over the card" test -z "$(losetup -j "$SIMCARD_DEV")"
done

done_testing
