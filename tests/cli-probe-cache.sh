#!/bin/bash
# cli-probe-cache.sh — the capacity check is not fooled by a controller
# cache, draws its map, and loses nothing when it is killed or stopped:
# its journal puts the card back with --restore, refuses another card,
# and INT, TERM, HUP and QUIT each end it with the card as it was.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

simcard=$(cd "$(dirname "$0")/simcard" && pwd)
[ "$(id -u)" = 0 ] || skip_all "the probe needs root for loop devices"

work=$(mktemp -d /var/tmp/cardmark-probe-cache-XXXXXX)
# Journals go to the data folder; keep them out of the user's.
export XDG_DATA_HOME=$work/xdg
journals=$XDG_DATA_HOME/cardmark/journals
[ -d "$XDG_DATA_HOME/cardmark-devel" ] && journals=$XDG_DATA_HOME/cardmark-devel/journals
loops=()
cleanup () {
  for l in "${loops[@]}"; do losetup -d "$l" 2> /dev/null; done
  [ -n "${SIMCARD_DIR:-}" ] && "$simcard/simcard-down" "$SIMCARD_DIR"
  rm -rf "$work"
}
trap cleanup EXIT

journal_count () {
  find "$XDG_DATA_HOME" -name '*.journal' 2> /dev/null | wc -l
}

# A fast simulated card that announces SIZE (1 GiB); FACTOR 8 holds 1/8.
card_up () {
  local factor=$1 cache=$2 size=${3:-1GiB}
  [ -n "${SIMCARD_DIR:-}" ] && "$simcard/simcard-down" "$SIMCARD_DIR"
  SIMCARD_DIR=
  "$simcard/simcard-up" good-a1 --size "$size" -- --fake-factor "$factor" --controller-cache "$cache" \
    --set read.bandwidth-mb-s=400 --set write.bandwidth-mb-s=400 \
    --set read.latency-us=20 --set write.latency-us=20 --set write.random-penalty-us=0 \
    > "$work/simcard.env"
  case $? in
    0) . "$work/simcard.env" ;;
    77) skip_all "no simulated card here (see tests/simcard)" ;;
    *) not_ok "simcard-up (factor $factor, cache $cache)"; done_testing ;;
  esac
  head -c "$SIMCARD_REAL_SIZE" /dev/urandom | dd of="$SIMCARD_DEV" bs=4M oflag=direct status=none
}

# The card's flash, read straight from the simulator's backing file: what
# the card holds once its cache is gone (and no 1 GiB read through FUSE).
card_sum () {
  sha256sum < "$SIMCARD_DIR/backing.img" | cut -d' ' -f1
}

# Waits (on a condition, with a deadline) until PID has stopped itself at
# the moment CARDMARK_PROBE_STOP_AT names.
wait_stopped () {
  local pid=$1
  for _ in $(seq 600); do
    [ "$(awk '{print $3}' "/proc/$pid/stat" 2> /dev/null)" = T ] && return 0
    kill -0 "$pid" 2> /dev/null || return 1
    sleep 0.05
  done
  return 1
}

# Fake cards, with and without a cache, and a genuine one.
for cache in 0 64MiB 256MiB; do
  card_up 8 "$cache"
  before=$(card_sum)
  "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" --json > "$work/fake.json"
  check "a fake card with a $cache cache is found fake (exit 4)" test $? -eq 4
  check "… with its real size within one cell" json_check "$work/fake.json" \
    "r['fake'] and r['real_bytes'] - r['cell_bytes'] < $SIMCARD_REAL_SIZE <= r['real_bytes'] and r['last_good_bytes'] <= $SIMCARD_REAL_SIZE"
  check "… ruling out a cache of at least 256 MiB" json_check "$work/fake.json" \
    "r['cache_ruled_out_bytes'] >= 256 * 1024 * 1024"
  check "… where the map's verified cells end" json_check "$work/fake.json" \
    "r['cells'].index('no-storage') * r['cell_bytes'] == r['real_bytes'] and len(r['cells']) == r['positions'] and 200 <= len(r['cells']) <= 400"
  check "… and the card keeps every byte" test "$(card_sum)" = "$before"
done
check "no journal is left after a finished check" test "$(journal_count)" -eq 0

# The cache is real: a check that rules out less than it is fooled.
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" --cache-up-to 32M --json > "$work/fooled.json"
check "a check that rules out only 32 MiB is fooled by the 256 MiB cache" \
  json_check "$work/fooled.json" "not r['fake']"

card_up 1 64MiB 512MiB
before=$(card_sum)
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" --json --plot "$work/map.svg" > "$work/genuine.json"
check "a genuine card is genuine (exit 0)" test $? -eq 0
check "… every cell verified" json_check "$work/genuine.json" \
  "not r['fake'] and set(r['cells']) == {'verified'} and r['real_bytes'] == r['reported_bytes']"
check "… and keeps every byte" test "$(card_sum)" = "$before"
check "--plot draws the map" grep -q "Capacity map" "$work/map.svg"

"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" --cache-up-to lots 2> "$work/err"
check "a size that is not one is a usage error" test $? -eq 2

# Killed at three moments: while signing, while pushing the cache out,
# while putting the data back. The journal restores every byte.
card_up 8 64MiB
before=$(card_sum)
for moment in sign:150 flush:20 restore:5; do
  CARDMARK_PROBE_STOP_AT=$moment "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2>&1 &
  pid=$!
  if wait_stopped $pid; then
    kill -KILL $pid
    wait $pid 2> /dev/null
    check "killed at $moment, the card has lost data" test "$(card_sum)" != "$before"
    check "… and a journal is left" test "$(journal_count)" -eq 1
    "$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2> "$work/err"
    check "… a new check refuses to start before --restore" grep -q -- "--restore" "$work/err"
    "$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > "$work/out"
    check "… --restore succeeds" test $? -eq 0
    check "… and the card holds exactly what it held" test "$(card_sum)" = "$before"
    check "… and the journal is gone" test "$(journal_count)" -eq 0
  else
    not_ok "the probe never reached $moment"
    kill -KILL $pid 2> /dev/null
  fi
done
"$CARDMARK_CLI" probe-capacity --restore "$SIMCARD_DEV" > "$work/out"
check "--restore with no journal says there is nothing to put back" grep -q "nothing to put back" "$work/out"
"$simcard/simcard-down" "$SIMCARD_DIR"
SIMCARD_DIR=

# A journal is never written to another card, even in the same reader.
head -c $((64 * 1024 * 1024)) /dev/urandom > "$work/a.img"
head -c $((64 * 1024 * 1024)) /dev/urandom > "$work/b.img"
sum_a=$(sha256sum < "$work/a.img")
sum_b=$(sha256sum < "$work/b.img")
dev=$(losetup -f --show "$work/a.img")
loops+=("$dev")
CARDMARK_PROBE_STOP_AT=sign:40 "$CARDMARK_CLI" probe-capacity "$dev" > /dev/null 2>&1 &
pid=$!
if wait_stopped $pid; then
  kill -KILL $pid
  wait $pid 2> /dev/null
  losetup -d "$dev"
  losetup "$dev" "$work/b.img"
  "$CARDMARK_CLI" probe-capacity --restore "$dev" 2> "$work/err"
  check "a journal for another card in the same reader is refused (exit 1)" test $? -eq 1
  check "… saying it is for another card" grep -q "another card" "$work/err"
  check "… and that card is not touched" test "$(sha256sum < "$dev")" = "$sum_b"
  losetup -d "$dev"
  losetup "$dev" "$work/a.img"
  "$CARDMARK_CLI" probe-capacity --restore "$dev" > /dev/null
  check "the right card, back in the reader, is restored" test "$(sha256sum < "$dev")" = "$sum_a"
else
  not_ok "the probe never reached sign:40"
fi

# INT, TERM, HUP (a dropped SSH session) and QUIT: each stops the check,
# which puts the card's data back before it ends.
for sig in INT TERM HUP QUIT; do
  CARDMARK_PROBE_STOP_AT=sign:100 "$CARDMARK_CLI" probe-capacity "$dev" > /dev/null 2> "$work/err.$sig" &
  pid=$!
  if wait_stopped $pid; then
    kill -$sig $pid
    kill -CONT $pid
    wait $pid
    status=$?
    check "SIG$sig ends the check with status 1 (got $status)" test $status -eq 1
    check "… says it was cancelled and the data put back" grep -q "put back" "$work/err.$sig"
    check "… and leaves the card unchanged" test "$(sha256sum < "$dev")" = "$sum_a"
    check "… and no journal" test "$(journal_count)" -eq 0
  else
    not_ok "the probe never reached sign:100 for SIG$sig"
    kill -KILL $pid 2> /dev/null
  fi
done

done_testing
