#!/bin/bash
# cli-power-cut.sh — the power-cut test (issue 45) on simulated cards
# whose power the test cuts with --switch-off/--switch-on commands that
# write the card's power file. An honest card (a volatile cache a cut
# drops) keeps all it confirmed; a card whose flush lies loses, in its
# last cut, as many confirmed records as the card's own counters say it
# undid; a card that damages sectors beside its last write is caught,
# at the byte the card says; a switch that does not bring the card back,
# and a card that comes back without this run's mark, are said and not
# judged; the CLI killed (SIGKILL) between a cut and its read-back is
# carried on by the same command to the same verdict; a state file with
# a flipped byte is refused; refusals leave the card's bytes unchanged.
# The test waits on conditions (the card's power file, exit statuses),
# never on a clock.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-power-XXXXXX)
export XDG_DATA_HOME=$work/xdg
states=$XDG_DATA_HOME/cardmark/power
card_dir=
cleanup () {
  [ -n "$card_dir" ] && "$here/simcard/simcard-down" "$card_dir"
  umount "$work/mnt" 2> /dev/null
  [ -f "$work/loops" ] && while read -r l; do losetup -d "$l" 2> /dev/null; done < "$work/loops"
  rm -rf "$work"
}
trap cleanup EXIT

# card OPTIONS…: a fresh 16 MiB simulated card, the last one gone.
card () {
  [ -n "$card_dir" ] && "$here/simcard/simcard-down" "$card_dir"
  card_dir=
  "$here/simcard/simcard-up" good-a1 --size 16MiB -- --set write.bandwidth-mb-s=200 --set read.bandwidth-mb-s=400 "$@" \
    > "$work/card.env" || skip_all "no simulated card here (see tests/simcard)"
  . "$work/card.env"
  card_dir=$SIMCARD_DIR
  udevadm settle 2> /dev/null
}

stat_of () { sed -n "s/^$1=//p" "$card_dir/mnt/stats"; }

# power-cut ARGS…: the test on the card, cut through its power file.
power_cut () {
  "$CARDMARK_CLI" power-cut "$SIMCARD_DEV" --destroy-data --area 1MiB --time-limit 5 \
    --switch-off "echo off > $card_dir/mnt/power" --switch-on "echo on > $card_dir/mnt/power" "$@"
}

# An honest card.
card --volatile-cache
power_cut --cuts 3 --json > "$work/honest.json" 2> "$work/err"
check "an honest card passes (status 0, got $?)" test $? -eq 0
check "… its power was cut once to check the switch and once per cut" test "$(stat_of power_cuts)" -eq 4
check "… kept every confirmed record in each of 3 cuts, 1 to 4 records in flight counted" json_check "$work/honest.json" \
  "len(r['power']['cuts']) == 3 and not r['power']['stopped'] and all(c['lost'] == 0 and c['kept'] > 0 and c['collateral_sectors'] == 0 and 0 < c['new'] + c['old'] + c['torn'] <= 4 for c in r['power']['cuts'])"
check "… and no state is left behind" test -z "$(ls "$states" 2> /dev/null)"

# A card whose flush lies: the last 2 flushed writes are undone by a cut.
card --lying-flush 2
power_cut --cuts 2 --json > "$work/lying.json" 2> "$work/err"
check "a card whose flush lies fails (status 4, got $?)" test $? -eq 4
lost_offsets=$(stat_of cut_lost_flushed_offsets | tr ',' '\n' | sort -u | grep -c .)
check "… with lost confirmed records in every cut, the last as many as the card undid ($lost_offsets)" json_check "$work/lying.json" \
  "len(r['power']['cuts']) == 2 and all(c['lost'] > 0 for c in r['power']['cuts']) and r['power']['cuts'][-1]['lost'] == $lost_offsets"

# A card that damages the sectors after its last write.
card --collateral 4
power_cut --cuts 2 --json > "$work/collateral.json" 2> "$work/err"
check "a card that damages other data fails (status 4, got $?)" test $? -eq 4
check "… found in its last cut where the card put it ($(stat_of cut_collateral_sectors) sectors at $(stat_of cut_collateral_offset))" json_check "$work/collateral.json" \
  "r['power']['cuts'][-1]['collateral_sectors'] == $(stat_of cut_collateral_sectors) and r['power']['cuts'][-1]['collateral_first_offset'] == $(stat_of cut_collateral_offset) and all(c['lost'] == 0 for c in r['power']['cuts'])"
power_cut --cuts 1 > "$work/out" 2> "$work/err"
check "… and the CLI names where" file_says "sectors it was not writing damaged, the first at byte $(stat_of cut_collateral_offset)" "$work/out"

# A reader that comes back under another name: at the first cut's
# switch-on the card is attached at another loop device and the first
# one let go; the test finds it there by its mark and goes on.
card --volatile-cache
"$CARDMARK_CLI" power-cut "$SIMCARD_DEV" --destroy-data --area 1MiB --time-limit 5 --cuts 2 --json \
  --switch-off "echo off > $card_dir/mnt/power" \
  --switch-on "echo on > $card_dir/mnt/power; echo x >> $work/ons; if [ \$(wc -l < $work/ons) -eq 2 ]; then losetup -f $card_dir/mnt/card.img && losetup -d $SIMCARD_DEV; fi" \
  > "$work/moved.json" 2> "$work/err"
check "a card back under another name is found and judged (status 0, got $?)" test $? -eq 0
check "… its document names where it ended" json_check "$work/moved.json" \
  "len(r['power']['cuts']) == 2 and r['target']['path'] != '$SIMCARD_DEV' and r['target']['path'].startswith('/dev/loop')"

# A switch that never brings the card back.
card --volatile-cache
"$CARDMARK_CLI" power-cut "$SIMCARD_DEV" --destroy-data --area 1MiB --time-limit 2 --cuts 1 \
  --switch-off "echo off > $card_dir/mnt/power" --switch-on "true" > "$work/out" 2> "$work/err"
check "a switch that does not bring the card back fails (status 1, got $?)" test $? -eq 1
check "… saying so" file_says "did not come back" "$work/err"
echo on > "$card_dir/mnt/power"

# A card that comes back without this run's mark is another card.
"$CARDMARK_CLI" power-cut "$SIMCARD_DEV" --destroy-data --area 1MiB --time-limit 2 --cuts 1 \
  --switch-off "echo off > $card_dir/mnt/power" \
  --switch-on "echo on > $card_dir/mnt/power; dd if=/dev/zero of=$SIMCARD_DEV bs=4096 seek=1 count=1 oflag=direct conv=fsync status=none" \
  > "$work/out" 2> "$work/err"
check "another card after the cut is not judged (status 1, got $?)" test $? -eq 1
check "… and is said to be another card" file_says "not the card under test" "$work/err"
rm -rf "$states"

# Ctrl-C (SIGINT, sent by the switch-off command of the second cut):
# stopped, said, never a pass; the same command then carries on.
card --volatile-cache
"$CARDMARK_CLI" power-cut "$SIMCARD_DEV" --destroy-data --area 1MiB --time-limit 5 --cuts 3 --json \
  --switch-off "echo off > $card_dir/mnt/power; echo x >> $work/offs; if [ \$(wc -l < $work/offs) -eq 3 ]; then kill -INT \$PPID; fi" \
  --switch-on "echo on > $card_dir/mnt/power" > "$work/stopped.json" 2> "$work/err"
check "Ctrl-C stops the test (status 5, got $?)" test $? -eq 5
check "… and says so" file_says "Stopping the power-cut test" "$work/err"
check "… its document keeps the cut it finished, stopped, nothing lost" json_check "$work/stopped.json" \
  "r['power']['stopped'] and len(r['power']['cuts']) == 1 and r['power']['cuts'][0]['lost'] == 0"
power_cut --cuts 3 --json > "$work/carried.json" 2> "$work/err"
check "the same command carries on to the end (status 0, got $?)" test $? -eq 0
check "… with all 3 cuts" json_check "$work/carried.json" "len(r['power']['cuts']) == 3 and not r['power']['stopped']"

# Killed (SIGKILL) by its own switch-off command, right after the first
# cut (the switch's check before it cuts once): the same command carries
# on to the same verdict.
card --lying-flush 2
"$CARDMARK_CLI" power-cut "$SIMCARD_DEV" --destroy-data --area 1MiB --time-limit 5 --cuts 2 \
  --switch-off "echo off > $card_dir/mnt/power; if [ -e $work/checked ]; then kill -KILL \$PPID; else touch $work/checked; fi" \
  --switch-on "echo on > $card_dir/mnt/power" > /dev/null 2> "$work/err"
check "the first run was killed (status 137, got $?)" test $? -eq 137
check "… and left its state on the host" test -n "$(ls "$states" 2> /dev/null)"
check "… with the card's power off" grep -q off "$card_dir/mnt/power"
saved=$(ls "$states"/*.ini)
cp "$saved" "$work/state.ini"
power_cut --cuts 2 --json > "$work/resumed.json" 2> "$work/err"
check "the same command carries on to the lying card's verdict (status 4, got $?)" test $? -eq 4
check "… reading back the cut the kill interrupted: lost records in both cuts" json_check "$work/resumed.json" \
  "len(r['power']['cuts']) == 2 and all(c['lost'] > 0 for c in r['power']['cuts'])"

# A state with one byte flipped is refused, and nothing is written.
mkdir -p "$states"
cp "$work/state.ini" "$saved"
state=$saved
python3 -c "
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
i = b.index(b'confirmed=') + len('confirmed=')
b[i] ^= 0x01
open(p, 'wb').write(b)" "$state"
echo on > "$card_dir/mnt/power"
before=$(sha256sum "$SIMCARD_DEV" | cut -d' ' -f1)
cuts_before=$(stat_of power_cuts)
power_cut --cuts 2 > /dev/null 2> "$work/err"
check "a state with a flipped byte is refused (status 1, got $?)" test $? -eq 1
check "… as damaged" file_says "is damaged" "$work/err"
check "… and the card is unchanged (sha256)" test "$(sha256sum "$SIMCARD_DEV" | cut -d' ' -f1)" = "$before"
rm -rf "$states"

# Without --destroy-data: a usage error, nothing written.
"$CARDMARK_CLI" power-cut "$SIMCARD_DEV" --area 1MiB --switch-off "echo off > $card_dir/mnt/power" \
  --switch-on "echo on > $card_dir/mnt/power" > /dev/null 2> "$work/err"
check "without --destroy-data it is refused (status 2, got $?)" test $? -eq 2
check "… and the card is unchanged (sha256)" test "$(sha256sum "$SIMCARD_DEV" | cut -d' ' -f1)" = "$before"
check "… and its power was never cut" test "$(stat_of power_cuts)" -eq "$cuts_before"

# A partition, and a card with a mounted file system.
mkdir -p "$work/mnt"
img=$work/parted.img
truncate -s 64MiB "$img"
printf 'label: dos\nstart=2048, size=32768, type=83\nstart=34816, type=83\n' | sfdisk -q "$img"
dev=$(losetup -f --show -P "$img") && echo "$dev" >> "$work/loops"
udevadm settle 2> /dev/null
[ -b "${dev}p1" ] || partx -a "$dev"
mkfs.ext4 -q "${dev}p1" && mount -o ro "${dev}p1" "$work/mnt"
sum=$(sha256sum "$img" | cut -d' ' -f1)
for target in "${dev}p2" "$dev"; do
  "$CARDMARK_CLI" power-cut "$target" --destroy-data --area 1MiB --switch-off true --switch-on true > /dev/null 2> "$work/err"
  check "$target (a partition, or a card in use) is refused (status 1, got $?)" test $? -eq 1
done
umount "$work/mnt"
sync
check "… and its bytes are unchanged (sha256)" test "$(sha256sum "$img" | cut -d' ' -f1)" = "$sum"

done_testing
