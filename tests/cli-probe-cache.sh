#!/bin/bash
# cli-probe-cache.sh — the capacity check is not fooled by a controller
# cache: fake cards with caches of 0, 64 and 256 MiB are found fake with
# their real size within one cell, a genuine card is genuine, every card
# keeps its bytes, and the map comes out in --json and --plot.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
source "$(dirname "$0")/lib/probe.sh"

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
  elapsed "cache $cache"
done
check "no journal is left after a finished check" test "$(journal_count)" -eq 0

elapsed "The cache is real"
# The cache is real: a check that rules out less than it is fooled.
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" --cache-up-to 32M --json > "$work/fooled.json"
check "a check that rules out only 32 MiB is fooled by the 256 MiB cache" \
  json_check "$work/fooled.json" "not r['fake']"

elapsed "card_up 1 64MiB 512MiB"
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

elapsed "end"
done_testing
