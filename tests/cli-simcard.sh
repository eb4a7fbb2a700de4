#!/bin/bash
# cli-simcard.sh — cardmark-cli against simulated cards under the real
# udisksd: opened through UDisks as a user would, write-protected,
# failing, pulled out mid-run, and mounted.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
need_test_hooks CARDMARK_OPEN_VIA_UDISKS
need_simcard_path

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"
"$here/env/services-up" || skip_all "the system bus, udev and udisksd could not be started"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-simcard-XXXXXX)
cards=()
cleanup () {
  umount "$work/mnt" 2>/dev/null
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT

# card PROFILE: brings a simulated card up and sets SIMCARD_*.
card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2>/dev/null
}

card good-a1 || skip_all "no simulated card here (see tests/simcard)"
CARDMARK_OPEN_VIA_UDISKS=1 "$CARDMARK_CLI" bench "$SIMCARD_DEV" --only seq-read,rand-read-4k --json > "$work/udisks.json" 2> "$work/err"
check "bench through the UDisks file descriptor exits 0" test $? -eq 0
check "it measured the card read-only" json_check "$work/udisks.json" \
  'r["target"]["mode"] == "raw-read" and r["target"]["device"] == "'"$SIMCARD_DEV"'" and r["target"]["reader"] == "loop"'
check "its sequential read is the card's, within 20 % of the model" json_check "$work/udisks.json" \
  "abs(r['tests'][0]['mb_per_s'] / $SIMCARD_SEQ_READ_MB_S - 1) < 0.2"
check "its direct I/O was kept" json_check "$work/udisks.json" 'r["target"]["direct_io"] is True'

# An ordinary user can't open the device node, so CardMark asks UDisks,
# and polkit, with no agent to ask the user, refuses.
if command -v setpriv > /dev/null; then
  cp "$CARDMARK_CLI" "$work/cardmark-cli"
  chmod 755 "$work" "$work/cardmark-cli"
  (cd / && setpriv --reuid=65534 --regid=65534 --clear-groups "$work/cardmark-cli" bench "$SIMCARD_DEV" \
     > "$work/refused.out" 2> "$work/refused.err")
  check "a user polkit refuses gets status 1" test $? -eq 1
  check "the message says permission was refused" grep -qx "cardmark-cli: Permission to open the card was refused." "$work/refused.err"
  check "and nothing else happened" test ! -s "$work/refused.out" -a "$(wc -l < "$work/refused.err")" -eq 1
else
  skip "polkit refusal: setpriv is missing"
fi

# Pulled out mid-run: the daemon behind the card dies, as a reader's
# card does when it leaves the slot.
"$CARDMARK_CLI" bench "$SIMCARD_DEV" > /dev/null 2> "$work/err" &
pid=$!
# Mid-run: once its first speed test is under way.
for _ in $(seq 600); do grep -q "Running" "$work/err" && break; sleep 0.05; done
kill -9 "$SIMCARD_PID"
start=$(date +%s)
wait $pid
status=$?
# Printed, not bounded: a busy machine stretches it; a hang is meson's
# time-out.
echo "# the run ended $(( $(date +%s) - start )) s after the card was pulled"
check "a card pulled mid-run ends the run with status 1 (not a crash)" test $status -eq 1
check "it says what happened" grep -qiE "removed|I/O error" "$work/err"

card read-only || not_ok "read-only card"
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --allow-write --only seq-write,seq-read,rand-read-4k --json > "$work/ro.json" 2> "$work/err"
check "a write-protected card still gives a result" test $? -eq 0
check "its write test says write-protected" json_check "$work/ro.json" \
  '"write-protected" in [t for t in r["tests"] if t["name"] == "seq-write"][0]["error"]'
check "its read tests report figures" json_check "$work/ro.json" \
  'all(t["mb_per_s"] > 0 for t in r["tests"] if "read" in t["name"])'
check "and no note claims bytes were written back" json_check "$work/ro.json" \
  'not any("written back" in n or "wrote the card" in n for n in r["notes"])'

card failing -- --set card.fail-after=300 || not_ok "failing card"
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --allow-write > /dev/null 2> "$work/err"
status=$?
check "a card failing with I/O errors ends the run with status 1" test $status -eq 1
check "the message names the I/O error and what to do" grep -q "I/O error.*back up" "$work/err"

# A card so slow that one random write takes longer than the warm-up:
# the write that began during the warm-up is counted with the time it
# took, so at queue depth 1 the rate can't beat one command per latency.
# Allocation units of 4 KiB, one open at a time: every random write pays.
card good-a1 --size 64MiB -- --set write.random-penalty-us=2500000 --set card.au-size=4096 \
  --set card.open-aus=1 || not_ok "very slow card"
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --allow-write --only rand-write-4k --json > "$work/slow.json" 2> "$work/err"
check "a card slower than the warm-up still gives a result" test $? -eq 0
check "its IOPS agree with its latency" json_check "$work/slow.json" \
  'r["tests"][0]["iops"] * r["tests"][0]["latency_us"]["p50"] / 1e6 <= 1.02'

# Mounted: bench on the device tests a scratch file through the mount.
card good-a1 || not_ok "good card"
mkfs.ext4 -q "$SIMCARD_DEV"
mkdir -p "$work/mnt"
if mount "$SIMCARD_DEV" "$work/mnt"; then
  udevadm settle 2>/dev/null
  touch "$work/mnt/photo.jpg"
  "$CARDMARK_CLI" bench "$SIMCARD_DEV" --only seq-write,seq-read --json > "$work/mounted.json" 2> "$work/err"
  check "bench on a mounted card exits 0" test $? -eq 0
  check "it used file mode in the mount point" json_check "$work/mounted.json" \
    'r["target"]["mode"] == "file" and r["target"]["path"] == "'"$work/mnt"'" and r["target"]["device"] == "'"$SIMCARD_DEV"'"'
  check "the result says why" json_check "$work/mounted.json" 'any("mounted" in n for n in r["notes"])'
  check "the card's files are untouched and no scratch file is left" test "$(ls -A "$work/mnt")" = "$(printf 'lost+found\nphoto.jpg')"
  umount "$work/mnt"
else
  skip "ext4 cannot be mounted here"
fi

done_testing
