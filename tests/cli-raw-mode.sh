#!/bin/bash
# cli-raw-mode.sh — cardmark-cli bench on a whole block device.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
need_test_hooks CARDMARK_MEMORY_BYTES

[ "$(id -u)" = 0 ] || skip_all "raw mode needs root to attach loop devices"
[ -e /dev/loop-control ] || skip_all "no loop device support in this kernel"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-raw-XXXXXX)
loops=()
cleanup () {
  for l in "${loops[@]}"; do
    umount "$l" 2>/dev/null
    losetup -d "$l" 2>/dev/null
  done
  rm -rf "$work"
}
trap cleanup EXIT

# A 320 MiB "card" full of random bytes, so a write that did not put
# back exactly what was there would show in the checksum.
head -c $((320 * 1024 * 1024)) /dev/urandom > "$work/card.img"
dev=$(losetup -f --show "$work/card.img") || skip_all "losetup failed"
loops+=("$dev")
before=$(sha256sum < "$dev")

"$CARDMARK_CLI" bench "$dev" --json > "$work/read.json" 2> "$work/err"
check "raw read-only bench exits 0" test $? -eq 0
check "raw read-only mode is recorded" json_check "$work/read.json" 'r["target"]["mode"] == "raw-read" and r["target"]["device"] == "'"$dev"'"'
check "read-only mode runs only the read tests" json_check "$work/read.json" \
  '[t["name"] for t in r["tests"]] == ["seq-read", "rand-read-4k", "rand-read-4k-qd32"]'
check "read tests have figures" json_check "$work/read.json" 'all(t["mb_per_s"] > 0 for t in r["tests"])'
check "progress counts only the read tests (1 of 3 … 3 of 3)" \
  bash -c 'grep -qF "Sequential read (1 of 3)" "$1" && grep -qF "Random 4K read, 32 at once (3 of 3)" "$1"' _ "$work/err"
check "a read-only run leaves the device unchanged" test "$(sha256sum < "$dev")" = "$before"

"$CARDMARK_CLI" bench "$dev" --allow-write --json > "$work/write.json" 2> "$work/err"
check "raw write bench exits 0" test $? -eq 0
check "raw write mode is recorded" json_check "$work/write.json" 'r["target"]["mode"] == "raw-write"'
check "raw write mode reads first, then runs every test" json_check "$work/write.json" \
  '[t["name"] for t in r["tests"]] == ["seq-read", "seq-write", "rand-write-4k", "rand-read-4k", "rand-write-4k-qd32", "rand-read-4k-qd32"]'
check "write tests have figures" json_check "$work/write.json" 'all(t["mb_per_s"] > 0 and t["iops"] > 0 for t in r["tests"])'
check "the result records the quick profile's 256 MiB test area" json_check "$work/write.json" \
  'r["target"]["area_bytes"] == 256 * 1024 * 1024 and not any("test area" in n for n in r["notes"])'
sync
echo 3 > /proc/sys/vm/drop_caches
check "--allow-write left every byte of the device as it was" test "$(sha256sum < "$dev")" = "$before"
check "with no other writer, the result says the content is unchanged" json_check "$work/write.json" \
  'any("content is unchanged" in n for n in r["notes"]) and not any("Another program" in n for n in r["notes"])'

# Only writes asked for: the area is read first all the same, unmeasured.
"$CARDMARK_CLI" bench "$dev" --allow-write --only rand-write-4k,seq-write --json > "$work/only.json" 2> "$work/err"
check "a write-only raw run exits 0" test $? -eq 0
check "it ran just the writes asked for" json_check "$work/only.json" \
  '[t["name"] for t in r["tests"]] == ["seq-write", "rand-write-4k"]'
sync
echo 3 > /proc/sys/vm/drop_caches
check "a write-only raw run left the device as it was" test "$(sha256sum < "$dev")" = "$before"

# On a computer with 512 MiB of memory the copy of the area must be
# smaller, and the result says so: random writes look better on less.
CARDMARK_MEMORY_BYTES=$((512 * 1024 * 1024)) "$CARDMARK_CLI" bench "$dev" --allow-write --only seq-write --json \
  > "$work/small.json" 2> "$work/err"
check "a raw write run on little memory exits 0" test $? -eq 0
check "it records the smaller area it wrote" json_check "$work/small.json" \
  'r["target"]["area_bytes"] == 64 * 1024 * 1024 and r["tests"][0]["bytes"] == 64 * 1024 * 1024'
check "a note says the area was smaller, and why" json_check "$work/small.json" \
  'any("test area of 67.1\xa0MB instead of 268.4\xa0MB" in n and "memory" in n for n in r["notes"])'

# Cancelled in the middle of the random writes: still unchanged.
"$CARDMARK_CLI" bench "$dev" --allow-write > /dev/null 2>&1 &
pid=$!
sleep 5
kill -INT $pid
wait $pid
check "a cancelled raw write run exits 5" test $? -eq 5
check "a cancelled raw write run left the device as it was" test "$(sha256sum < "$dev")" = "$before"

# A mounted device is never written to.
truncate -s 64M "$work/fs.img"
mkfs.ext4 -q "$work/fs.img"
fsdev=$(losetup -f --show "$work/fs.img")
loops+=("$fsdev")
mkdir "$work/mnt"
if mount "$fsdev" "$work/mnt" 2>/dev/null; then
  "$CARDMARK_CLI" bench "$fsdev" --allow-write > /dev/null 2> "$work/err"
  check "writing to a mounted device is refused with status 1" test $? -eq 1
  check "the refusal says it is mounted" grep -q "mounted" "$work/err"
  umount "$work/mnt"
else
  skip "cannot mount ext4 here"
  skip "cannot mount ext4 here"
fi

# A write-protected device: reads still report, writes say why not (one
# of each is enough; the whole plan ran above).
rodev=$(losetup -r -f --show "$work/card.img")
loops+=("$rodev")
"$CARDMARK_CLI" bench "$rodev" --allow-write --only seq-read,seq-write,rand-write-4k --json > "$work/ro.json" 2> "$work/err"
check "a write-protected device still gives a result" test $? -eq 0
check "its write tests say write-protected" json_check "$work/ro.json" \
  'all("write-protected" in t["error"] for t in r["tests"] if "write" in t["name"])'
check "its read tests have figures" json_check "$work/ro.json" \
  'all(t["mb_per_s"] > 0 for t in r["tests"] if "read" in t["name"])'

# Another program writes to the card during a raw write run: the bytes
# CardMark writes back may undo it, so the run fails with that as its
# error (exit 1), and gives no result to keep, instead of a result with a
# note.
export XDG_DATA_HOME=$work/xdg
"$CARDMARK_CLI" bench "$dev" --allow-write --only rand-write-4k --json --save > "$work/other.json" 2> "$work/err" &
pid=$!
for _ in $(seq 1200); do
  grep -q "Running .* (1 of 1)" "$work/err" && break
  kill -0 $pid 2>/dev/null || break
  sleep 0.05
done
head -c $((1024 * 1024)) /dev/urandom | dd of="$dev" bs=1M seek=3 oflag=direct status=none
wait $pid
check "a raw write run with another writer exits 1" test $? -eq 1
check "its error says another program wrote to the card, how much, and what may be lost" \
  grep -qE "^cardmark-cli: Another program wrote 1\.0.{1,2}MB to the card during the test\..*may be lost" "$work/err"
check "it prints no result" test ! -s "$work/other.json"
check "and keeps none in the history" test -z "$(find "$XDG_DATA_HOME" -name '*.json' 2> /dev/null)"

done_testing
