#!/bin/bash
# cli-sustained.sh — the sustained write on simulated cards with a write
# cache and with garbage-collection stalls: the cliff is found where the
# model puts it, the classes are judged on what the card sustains, a
# short write says it is short, and a raw run (finished or cancelled)
# leaves the card as it was.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-sustained-XXXXXX)
cards=()
cleanup () {
  umount "$work/mnt" 2>/dev/null
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

# card PROFILE [OPTIONS…]: brings a simulated card up and sets SIMCARD_*.
card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2>/dev/null
}

stat_of () {
  sed -n "s/^$1=//p" "$SIMCARD_DIR/mnt/stats"
}

# Waits (up to 30 s) until the card's write cache has emptied.
wait_cache_empty () {
  for _ in $(seq 300); do
    [ "$(stat_of cache_fill)" = 0 ] && return 0
    sleep 0.1
  done
  return 1
}

card cached --size 256MiB || skip_all "no simulated card here (see tests/simcard)"
sum_before=$(sha256sum < "$SIMCARD_DEV")

# The full profile's sustained write, raw: it runs past the cache, finds
# the cliff where the model put it and stops once the rate is steady.
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --allow-write --profile full --only seq-write-sustained \
  --claim U3,V30 --json > "$work/raw.json" 2> "$work/err"
check "the raw sustained write runs and judges (exit 3: below)" test $? -eq 3
check "it went past the cliff" json_check "$work/raw.json" 'r["tests"][0]["cliff"]["past_cliff"] is True'
check "the cliff is within 10 % of the modelled cache ($SIMCARD_CACHE_BYTES bytes)" json_check "$work/raw.json" \
  "abs(r['tests'][0]['cliff']['full_speed_bytes'] / $SIMCARD_CACHE_BYTES - 1) < 0.1"
check "the rate after it is the model's, within 20 % ($SIMCARD_SUSTAINED_WRITE_MB_S MB/s)" json_check "$work/raw.json" \
  "abs(r['tests'][0]['cliff']['after_mb_per_s'] / $SIMCARD_SUSTAINED_WRITE_MB_S - 1) < 0.2"
check "it stopped once steady, before the card's end" json_check "$work/raw.json" \
  "r['tests'][0]['bytes'] < $SIMCARD_SIZE"
check "U3 and V30 are below, on the rate after the cliff" json_check "$work/raw.json" \
  '[c["status"] for c in r["claims"]] == ["below", "below"] and all(abs(c["criteria"][0]["measured"] - r["tests"][0]["cliff"]["after_mb_per_s"]) < 0.01 for c in r["claims"])'
check "the card is unchanged" test "$(sha256sum < "$SIMCARD_DEV")" = "$sum_before"

# Cancel in the middle of the raw sustained write: it ends, card
# unchanged. How long it took is printed, not bounded: a busy machine
# stretches it whatever CardMark does (a hang is meson's time-out).
wait_cache_empty
writes=$(stat_of write_bytes)
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --allow-write --profile full --only seq-write-sustained \
  > /dev/null 2> "$work/err" &
pid=$!
for _ in $(seq 300); do
  [ "$(stat_of write_bytes)" -gt $((writes + 96 * 1024 * 1024)) ] && break
  sleep 0.1
done
kill -INT $pid
start=$(date +%s%N)
wait $pid
status=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "a cancelled raw sustained write exits 5" test $status -eq 5
echo "# the cancelled write returned after ${elapsed_ms} ms"
check "the card is unchanged after the cancel" test "$(sha256sum < "$SIMCARD_DEV")" = "$sum_before"

# A short write (the quick profile) that stays inside a cache larger than
# the card meets U3 and V30, and says over how much it does.
card cached --size 256MiB -- --set cache.size=1GiB
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --allow-write --only seq-read,seq-write \
  --claim U3,V30 --json > "$work/quick.json" 2> "$work/err"
check "the quick write inside the cache exits 0" test $? -eq 0
check "it did not reach a cliff" json_check "$work/quick.json" \
  'next(t for t in r["tests"] if t["name"] == "seq-write")["cliff"]["past_cliff"] is False'
check "the claims keep their status and say how much was written" json_check "$work/quick.json" \
  'all(c["status"] == "meets" and "MB write" in c["reason"] and "Full test" in c["reason"] for c in r["claims"])'
check "the summary does not promise 4K video without the caveat" json_check "$work/quick.json" \
  '"Fine for 4K video" in r["summary"] and "Full test" in r["summary"] and "MB write" in r["summary"]'

# File mode on a mounted ext4 card: the same cliff. The full profile's
# test area is 1 GiB, so the card is larger; a small filesystem, written
# at once (no lazy init), keeps mkfs short and the card quiet after it.
card cached --size 1280MiB
mkfs.ext4 -q -N 1024 -J size=4 -E lazy_itable_init=0,lazy_journal_init=0 "$SIMCARD_DEV"
mkdir -p "$work/mnt"
if mount "$SIMCARD_DEV" "$work/mnt"; then
  wait_cache_empty
  "$CARDMARK_CLI" bench "$work/mnt" --profile full --only seq-write-sustained \
    --claim U3,V30 --json > "$work/file.json" 2> "$work/err"
  check "the file-mode sustained write judges (exit 3: below)" test $? -eq 3
  check "file mode: the cliff is within 10 % of the modelled cache" json_check "$work/file.json" \
    "r['tests'][0]['cliff']['past_cliff'] and abs(r['tests'][0]['cliff']['full_speed_bytes'] / $SIMCARD_CACHE_BYTES - 1) < 0.1"
  check "file mode: U3 and V30 below" json_check "$work/file.json" \
    '[c["status"] for c in r["claims"]] == ["below", "below"]'
  check "file mode: nothing left behind" test "$(ls -A "$work/mnt")" = "lost+found"
  umount "$work/mnt"
else
  skip "file mode: the card could not be mounted"
fi

# A card that stalls for garbage collection is judged on its average, not
# on its bursts between stalls, nor on its worst second.
card gc-stalls
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --allow-write --profile full --only seq-write-sustained \
  --claim C10,U3 --json > "$work/stalls.json" 2> "$work/err"
check "the stalling card is judged (exit 3: U3 below)" test $? -eq 3
check "its stalls are not a cliff" json_check "$work/stalls.json" 'r["tests"][0]["cliff"]["past_cliff"] is False'
check "it is judged on what it sustains, within 20 % of the model ($SIMCARD_SUSTAINED_WRITE_MB_S MB/s)" json_check "$work/stalls.json" \
  "abs(r['claims'][0]['criteria'][0]['measured'] / $SIMCARD_SUSTAINED_WRITE_MB_S - 1) < 0.2"
check "C10 meets, U3 is below" json_check "$work/stalls.json" \
  '[c["status"] for c in r["claims"]] == ["meets", "below"]'

# The limit is the user's: a write that reaches it without its rate
# falling says so, and how to go further.
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --allow-write --profile full --only seq-write-sustained \
  --sustained-limit 64MiB --json > "$work/limit.json" 2> "$work/err"
check "--sustained-limit 64MiB (the least): the sustained write stops there" json_check "$work/limit.json" \
  'r["tests"][0]["bytes"] == 64 * 2**20'
check "a note says the limit was reached and that a higher one writes further" json_check "$work/limit.json" \
  'any("reached its limit" in n and "higher limit" in n for n in r["notes"])'
check "and the CLI says how to raise it" grep -q -- "--sustained-limit SIZE" "$work/err"

done_testing
