#!/bin/bash
# cli-endure.sh — cardmark-cli endure, the wear test, on simulated cards
# that wear out (tests/simcard, [wear]): no error before the round the
# model names, then the modelled share of bad sectors, growing round by
# round; status 4; the document and --csv say so round by round, with the
# maker's endurance (--tbw, --video-hours and --video-mbps) beside the
# bytes written. A card that is mounted, or given without --destroy-data,
# is refused untouched.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-endure-XXXXXX)
export XDG_DATA_HOME=$work/xdg
cards=()
cleanup () {
  umount "$work/mnt" 2>/dev/null
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/mnt"

# Small and fast: the test is about which sectors come back, not speed.
fast=(--set write.bandwidth-mb-s=200 --set read.bandwidth-mb-s=400)
wear=(--set wear.writes=4 --set wear.spread=0.6 --set wear.seed=7)

card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2>/dev/null
}

card_sum () { sha256sum "$SIMCARD_DEV" | cut -d' ' -f1; }

card good-a1 --size 24MiB -- "${fast[@]}" "${wear[@]}" || skip_all "no simulated card here (see tests/simcard)"
read -r -a shares <<< "$SIMCARD_WEAR_BAD_SHARE"
first=$SIMCARD_WEAR_FIRST_ROUND
echo "# model: first bad round $first, bad share per round: ${shares[*]}"

# Without leave to destroy the data: refused, the card untouched.
before=$(card_sum)
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --rounds 1 > "$work/out" 2> "$work/err"
check "without --destroy-data it is refused as a usage error (status 2)" test $? -eq 2
check "the message says how to go ahead" grep -q -- "--destroy-data" "$work/err"
check "the refused card is unchanged (sha256)" test "$(card_sum)" = "$before"

"$CARDMARK_CLI" endure > "$work/out" 2> "$work/err"
check "no DEVICE is a usage error (status 2)" test $? -eq 2
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds -1 > "$work/out" 2> "$work/err"
check "negative --rounds is a usage error (status 2)" test $? -eq 2

# The wear test, one round past the first error (and at most until half
# the card is bad, where it stops by itself).
rounds=$((first + 2))
rm -f "$work/rounds.csv"
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --video-hours 0.01 --video-mbps 8 > "$work/out" 2> "$work/err"
check "the maker's endurance without --destroy-data is still refused (status 2)" test $? -eq 2
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --video-hours 2 > "$work/out" 2> "$work/err"
check "--video-hours without --video-mbps is a usage error (status 2)" test $? -eq 2
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --tbw 1 --video-hours 2 --video-mbps 8 > "$work/out" 2> "$work/err"
check "--tbw with --video-hours is a usage error (status 2)" test $? -eq 2

# The maker's endurance as hours of video at its bitrate: 0.01 h at
# 8 Mbit/s is 0.01 × 3600 × 8 × 10^6 ÷ 8 bytes.
video_hours=0.01 video_mbps=8
maker=$(python3 -c "print(round($video_hours * 3600 * $video_mbps * 1e6 / 8))")
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds "$rounds" --json --csv "$work/rounds.csv" \
  --video-hours $video_hours --video-mbps $video_mbps > "$work/wear.json" 2> "$work/err"
check "a card that lost data is status 4" test $? -eq 4
check "the document is a wear test's" json_check "$work/wear.json" "r['kind'] == 'wear' and 'endurance' in r"
check "first_error_round is the modelled round $first" json_check "$work/wear.json" \
  "r['endurance']['first_error_round'] == $first"
done_rounds=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['endurance']['rounds']))" "$work/wear.json")
echo "# rounds run: $done_rounds"
check "it ran to --rounds or stopped at half the card bad" json_check "$work/wear.json" \
  "len(r['endurance']['rounds']) == $rounds or r['endurance']['stopped'] == 'half-bad'"
check "every round has its members" json_check "$work/wear.json" \
  "all(set(x) >= {'round','write_mb_per_s','read_mb_per_s','sectors','bad_sectors','new_bad_sectors','bytes_written','seconds'} for x in r['endurance']['rounds'])"
check "rounds count from 1 and bytes written add up" json_check "$work/wear.json" \
  "all(x['round'] == i + 1 and x['bytes_written'] == (i + 1) * $SIMCARD_SIZE and x['sectors'] * 512 == $SIMCARD_SIZE for i, x in enumerate(r['endurance']['rounds']))"
for ((i = 1; i <= done_rounds; i++)); do
  expected=${shares[$((i - 1))]:-1}
  check "round $i: the modelled share of bad sectors ($expected)" json_check "$work/wear.json" \
    "abs(r['endurance']['rounds'][$i - 1]['bad_sectors'] / r['endurance']['rounds'][$i - 1]['sectors'] - $expected) < 1e-5"
done
check "no round before $first lost anything" json_check "$work/wear.json" \
  "all(x['bad_sectors'] == 0 for x in r['endurance']['rounds'][:$first - 1])"
check "bad sectors grow round by round, and the new ones add up" json_check "$work/wear.json" \
  "all(b['bad_sectors'] >= a['bad_sectors'] and b['new_bad_sectors'] == b['bad_sectors'] - a['bad_sectors'] for a, b in zip(r['endurance']['rounds'], r['endurance']['rounds'][1:]))"
check "the thresholds: the first error's round and bytes" json_check "$work/wear.json" \
  "r['endurance']['thresholds'][0]['round'] == $first and r['endurance']['thresholds'][0]['bytes_written'] == $first * $SIMCARD_SIZE"
check "six thresholds, each reached no earlier than the one before" json_check "$work/wear.json" \
  "len(r['endurance']['thresholds']) == 6 and all(b['round'] is None or (a['round'] is not None and b['round'] >= a['round']) for a, b in zip(r['endurance']['thresholds'], r['endurance']['thresholds'][1:]))"
check "the summary names the round of the first loss" json_check "$work/wear.json" \
  "'round $first' in r['summary']"
check "maker_bytes is the hours of video at the maker's bitrate ($maker)" json_check "$work/wear.json" \
  "r['endurance']['maker_bytes'] == $maker"
check "each threshold reached sets its bytes written beside the maker's" json_check "$work/wear.json" \
  "all((t['round'] is None and t['maker_share'] is None) or abs(t['maker_share'] - t['bytes_written'] / $maker) < 1e-9 for t in r['endurance']['thresholds'])"
check "the summary says how much of the maker's endurance the first loss came at" json_check "$work/wear.json" \
  "('%.1f %% of it' % (100 * $first * $SIMCARD_SIZE / $maker)) in r['summary']"
check "--csv has a header and one line per round" \
  test "$(wc -l < "$work/rounds.csv")" -eq $((done_rounds + 1))
check "--csv's lines match the document's rounds" python3 - "$work/rounds.csv" "$work/wear.json" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))['endurance']['rounds']
sys.exit(0 if [(int(x['round']), int(x['bad_sectors']), int(x['new_bad_sectors'])) for x in rows]
              == [(x['round'], x['bad_sectors'], x['new_bad_sectors']) for x in doc] else 1)
PY
check "the result is in the history" test "$(grep -lE '"kind" *: *"wear"' "$XDG_DATA_HOME"/cardmark*/history/*.json | wc -l)" -ge 1
"$CARDMARK_CLI" history > "$work/history.out" 2> "$work/err"
check "and the history lists it, with nothing skipped" test $? -eq 0 -a ! -s "$work/err"

# A card that does not wear out: status 0 and "came back whole".
card good-a1 --size 16MiB -- "${fast[@]}" || not_ok "a second card"
tbw=0.5
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 2 --tbw $tbw > "$work/whole.out" 2> "$work/err"
check "a card whose every round came back whole is status 0" test $? -eq 0
check "the summary says so" grep -q "Every round came back whole: 2 rounds" "$work/whole.out"
check "the report names the maker's endurance, --tbw in bytes" \
  grep -q "^Maker says: .*($(python3 -c "print(round($tbw * 1e12))") bytes)" "$work/whole.out"
# Never "0.0 % of it": a share below 0.05 % says "less than 0.1 %".
share=$(python3 -c "s = 100 * 2 * $SIMCARD_SIZE / ($tbw * 1e12); print('less than 0.1' if s < 0.05 else '%.1f' % s)")
check "and how much of it the test wrote without a loss ($share %)" \
  grep -q "no data lost by $share % of it" "$work/whole.out"
check "never a share of 0.0 %" sh -c "! grep -q ' 0\.0 %' \"$work/whole.out\""

# --hours: no round starts once the time is up (here 0.36 s, so the
# first round runs and a later one is not started).
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --hours 0.0001 --json > "$work/hours.json" 2> "$work/err"
check "--hours ends a whole card's test with status 0" test $? -eq 0
check "after at least one round, saying the time was up" json_check "$work/hours.json" \
  "len(r['endurance']['rounds']) >= 1 and r['endurance']['stopped'] == 'hours'"

# Ctrl-C after a round: the test stops within a moment and keeps the
# rounds it finished, in a document that says it was stopped.
rm -f "$work/stop.csv"
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --json --csv "$work/stop.csv" \
  > "$work/stop.json" 2> "$work/err" &
pid=$!
for _ in $(seq 300); do
  [ -f "$work/stop.csv" ] && [ "$(wc -l < "$work/stop.csv")" -ge 2 ] && break
  kill -0 $pid 2> /dev/null || break
  sleep 0.05
done
kill -INT $pid
stopped_at=$(date +%s.%N)
wait $pid
rc=$?
took=$(echo "$(date +%s.%N) - $stopped_at" | bc)
# Printed, not bounded: a busy machine stretches it; a hang is meson's
# time-out.
echo "# stopped $took s after SIGINT"
check "Ctrl-C ends a whole card's test with status 5, a stop" test $rc -eq 5
check "it says it stopped, not that it came back whole" sh -c "grep -q 'Stopped after' \"$work/err\" && ! grep -q 'came back whole' \"$work/err\""
check "and how to carry on" grep -q -- "endure --resume" "$work/err"
check "keeping the rounds it finished, and saying it was stopped" json_check "$work/stop.json" \
  "len(r['endurance']['rounds']) >= 1 and r['endurance']['stopped'] == 'cancelled' and len(r['notes']) >= 1"

# A mounted card is refused, untouched (mounted read-only, so that the
# filesystem itself writes nothing either).
if command -v mkfs.ext4 > /dev/null && mkfs.ext4 -q -O ^has_journal "$SIMCARD_DEV" &&
   before=$(card_sum) && mount -o ro "$SIMCARD_DEV" "$work/mnt"; then
  "$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 1 > "$work/out" 2> "$work/err"
  check "a mounted card is refused (status 1)" test $? -eq 1
  check "the message says to unmount it" grep -qi "unmount" "$work/err"
  umount "$work/mnt"
  check "the mounted card is unchanged (sha256)" test "$(card_sum)" = "$before"
else
  skip "no ext4 to mount a card with"
fi

done_testing
