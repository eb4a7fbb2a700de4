#!/bin/bash
# cli-verify.sh — cardmark-cli verify on simulated cards: a genuine card
# verifies clean, a fake one reports its real capacity, a failing one
# names where it failed, a stopped run carries on to the same report, and
# F3 (f3write/f3read) and CardMark read each other's files.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
need_test_hooks CARDMARK_TEST_VERIFY_FILE_BYTES

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-verify-XXXXXX)
export XDG_DATA_HOME=$work/xdg
cards=()
cleanup () {
  umount "$work/mnt" 2>/dev/null
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/mnt"

# The simulated cards here are small and quicker than good-a1, so the
# whole file takes seconds; verify cares about data, not speed classes.
fast=(--set write.bandwidth-mb-s=80 --set read.bandwidth-mb-s=160)

card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2>/dev/null
}

# mounted_card PROFILE ARGS…: a card with an ext4 filesystem, mounted.
mounted_card () {
  umount "$work/mnt" 2>/dev/null
  card "$@" || return 1
  mkfs.ext4 -q -O ^has_journal -E lazy_itable_init=0 "$SIMCARD_DEV" && mount "$SIMCARD_DEV" "$work/mnt"
}

card good-a1 --size 64MiB -- "${fast[@]}" || skip_all "no simulated card here (see tests/simcard)"

# A whole device only with leave to destroy it.
"$CARDMARK_CLI" verify "$SIMCARD_DEV" > "$work/out" 2> "$work/err"
check "verifying a whole device without --destroy-data is refused as a usage error (status 2)" test $? -eq 2
check "the message says it would destroy the data and how to go ahead" grep -q -- "--destroy-data" "$work/err"

"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data --json --plot "$work/genuine.png" > "$work/genuine.json" 2> "$work/err"
check "a genuine card verifies clean (status 0)" test $? -eq 0
check "every sector of it came back ok" json_check "$work/genuine.json" \
  "r['verify']['usable_bytes'] == $SIMCARD_SIZE and r['verify']['lost_bytes'] == 0 and r['verify']['first_bad_offset'] is None"
check "it wrote and read back the whole device" json_check "$work/genuine.json" \
  "[t['bytes'] for t in r['tests']] == [$SIMCARD_SIZE, $SIMCARD_SIZE] and r['target']['mode'] == 'raw-write'"
check "the chart was drawn" test -s "$work/genuine.png"
# The chart's read-back points are the card's speed at each place: none
# far above the others (the last one read twice as fast before).
steady="max(p[1] for p in r['tests'][1]['positions']) <= 1.6 * sorted(p[1] for p in r['tests'][1]['positions'])[len(r['tests'][1]['positions']) // 2]"
check "no read-back point above 1.6 times their median" json_check "$work/genuine.json" "$steady"
check "the result is in the history" test "$(ls "$XDG_DATA_HOME"/cardmark*/history/*.json | wc -l)" -ge 1
"$CARDMARK_CLI" history > "$work/history.out" 2> "$work/err"
check "and the history lists it, with nothing skipped" test $? -eq 0 -a ! -s "$work/err"
check "with its rates" grep -qE "verify +[0-9.]+ +[0-9.]+ +– +–" "$work/history.out"

# A fake card that wraps at 128 MiB.
card good-a1 --size 256MiB -- --fake-factor 2 "${fast[@]}" || not_ok "fake card"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data --json > "$work/fake.json" 2> "$work/err"
check "a fake card is data lost (status 4)" test $? -eq 4
check "its real capacity is reported within 1 %" json_check "$work/fake.json" \
  "abs(r['verify']['usable_bytes'] / $SIMCARD_REAL_SIZE - 1) < 0.01"
check "the lost half reads as overwritten" json_check "$work/fake.json" \
  "r['verify']['sectors']['overwritten'] * 512 >= 0.99 * ($SIMCARD_SIZE - $SIMCARD_REAL_SIZE)"
check "the summary calls it fake and says what to do" json_check "$work/fake.json" \
  "'Fake capacity' in r['summary'] and 'photos' in r['summary']"

# A card that fails after some commands: the run stops, names the region.
card good-a1 --size 64MiB -- "${fast[@]}" --set card.fail-after=170 || not_ok "failing card"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > "$work/failing.out" 2> "$work/err"
check "a card failing with I/O errors is data lost (status 4)" test $? -eq 4
check "the region where it failed is named" grep -q "^Bad region: *from" "$work/failing.out"
check "the summary says it stopped working and what to do" grep -q "stopped working at .*don't use it again" "$work/failing.out"
last=$(ls -t "$XDG_DATA_HOME"/cardmark*/history/*.json | head -1)
check "the saved result has the first bad place inside the card" json_check "$last" \
  "0 < r['verify']['first_bad_offset'] < $SIMCARD_SIZE and r['verify']['complete'] is False"

# Pulled out mid-run: the loop device goes and its daemon with it, as a
# card leaves its reader. What was done is kept for --resume.
card good-a1 --size 64MiB || not_ok "card to pull"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/err" &
pid=$!
for _ in $(seq 300); do
  state=$(grep -l "^current-offset=[1-9]" "$XDG_DATA_HOME"/cardmark*/verify/*.ini 2> /dev/null | head -1)
  [ -n "$state" ] && break
  sleep 0.05
done
losetup -d "$SIMCARD_DEV"
kill -9 "$SIMCARD_PID"
wait $pid
check "a card pulled mid-verify ends the run with status 1" test $? -eq 1
check "it says the card was removed and how to carry on" grep -q "removed.*carry on" "$work/err"
check "… with the CLI's own command, naming the card" file_says "cardmark-cli verify $SIMCARD_DEV --resume --destroy-data" "$work/err"
check "its progress is kept" test -n "$state" -a -s "$state"
rm -f "$state"

# Resumed: stopped in the middle and carried on, the same report as an
# uninterrupted run on the same filesystem. Files of 8 MiB, so the card
# holds several and the stop falls between them.
if mounted_card good-a1 --size 64MiB -- "${fast[@]}"; then
  export CARDMARK_TEST_VERIFY_FILE_BYTES=$((8 * 1024 * 1024))
  "$CARDMARK_CLI" verify "$work/mnt" --json > "$work/whole.json" 2> "$work/err"
  check "an uninterrupted verify of a folder exits 0" test $? -eq 0
  check "and leaves no .h2w file behind" test -z "$(ls "$work/mnt" | grep h2w)"
  "$CARDMARK_CLI" verify "$work/mnt" --json > "$work/stopped.json" 2> "$work/err" &
  pid=$!
  for _ in $(seq 300); do
    state=$(ls "$XDG_DATA_HOME"/cardmark*/verify/*.ini 2> /dev/null | head -1)
    [ -n "$state" ] && grep -q '^files=[3-9]' "$state" && break
    sleep 0.05
  done
  kill -INT $pid
  wait $pid
  check "Ctrl-C stops the verify with status 5" test $? -eq 5
  check "it says the verify stopped" grep -q "Full verify stopped before the end" "$work/err"
  check "it says how to carry on, naming the folder" file_says "cardmark-cli verify $work/mnt --resume" "$work/err"
  check "no raw \"Operation was cancelled\" before its own words" bash -c "! grep -q 'Operation was cancelled' '$work/err'"
  check "the state and the files written so far are kept" test -s "$state" -a -e "$work/mnt/1.h2w"
  "$CARDMARK_CLI" verify "$work/mnt" > /dev/null 2> "$work/err"
  check "a new run without --resume is refused while files are there" grep -q -- "--resume" "$work/err"
  "$CARDMARK_CLI" verify "$work/mnt" --resume --json > "$work/resumed.json" 2> "$work/err"
  check "the resumed verify exits 0" test $? -eq 0
  check "it gives the same report as the uninterrupted run" python3 - "$work/whole.json" "$work/resumed.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["verify"] for p in sys.argv[1:3])
keys = ["files", "written_bytes", "checked_bytes", "sectors", "usable_bytes", "lost_bytes", "bad_regions"]
diff = [k for k in keys if a[k] != b[k]]
if diff:
    print("# differ: %s" % [(k, a[k], b[k]) for k in diff], file=sys.stderr)
sys.exit(1 if diff else 0)
PY
  check "and removes its state and files" test ! -e "$state" -a -z "$(ls "$work/mnt" | grep h2w)"
  unset CARDMARK_TEST_VERIFY_FILE_BYTES
else
  skip "ext4 cannot be mounted on a simulated card here"
fi

# Against F3 itself.
if ! command -v f3read > /dev/null; then
  skip "f3 is not installed (build-aux/install-deps --tests)"
elif mounted_card good-a1 --size 64MiB -- "${fast[@]}"; then
  "$CARDMARK_CLI" verify "$SIMCARD_DEV" --keep > /dev/null 2> "$work/err"
  check "verify --keep on a mounted card exits 0" test $? -eq 0
  f3read "$work/mnt" > "$work/f3read.out" 2>&1
  check "f3read accepts CardMark's files with 0 corrupted sectors" grep -qE "Corrupted: 0\.00 Byte \(0 sectors\)" "$work/f3read.out"
  check "and reads them all as ok" grep -qE "Data LOST: 0\.00 Byte" "$work/f3read.out"
  rm -f "$work/mnt"/*.h2w
  f3write "$work/mnt" > /dev/null 2>&1
  "$CARDMARK_CLI" verify "$work/mnt" --read-only --json > "$work/f3.json" 2> "$work/err"
  check "CardMark verifies the files f3write wrote (status 0)" test $? -eq 0
  check "all of them ok" json_check "$work/f3.json" "r['verify']['lost_bytes'] == 0 and r['verify']['usable_bytes'] > 0"
  check "--read-only leaves F3's files in place" test -e "$work/mnt/1.h2w"

  # Both tools on a fake card, through its filesystem.
  if mounted_card good-a1 --size 256MiB -- --fake-factor 2 "${fast[@]}"; then
    f3write "$work/mnt" > /dev/null 2>&1
    f3read "$work/mnt" > "$work/f3fake.out" 2>&1
    f3ok=$(sed -n 's/.*Data OK:.*(\([0-9]*\) sectors).*/\1/p' "$work/f3fake.out")
    rm -f "$work/mnt"/*.h2w
    "$CARDMARK_CLI" verify "$work/mnt" --keep --json > "$work/cmfake.json" 2> "$work/err"
    check "CardMark calls the fake card's folder data lost (status 4)" test $? -eq 4
    # The two fills land on the filesystem's blocks in a different order,
    # so which blocks alias differs a little: the brief allows one F3
    # file; 5 % of this small card is far tighter.
    check "both tools find the same usable capacity, within 5 %" json_check "$work/cmfake.json" \
      "${f3ok:-0} > 0 and abs(r['verify']['sectors']['ok'] / ${f3ok:-1} - 1) < 0.05"
    # The filesystem writes its metadata (the files' sizes, their access
    # times on a first read) some seconds later, and on a fake card that
    # lands on some files' sectors: both tools count again once it has.
    # (Its inode tables are written whole by mkfs, not zeroed later in
    # the background by ext4lazyinit, which corrupted sectors between the
    # two tools' reads.)
    sync
    "$CARDMARK_CLI" verify "$work/mnt" --read-only --json > /dev/null 2>&1
    sync
    "$CARDMARK_CLI" verify "$work/mnt" --read-only --json > "$work/cmfake-again.json" 2> "$work/err"
    f3read "$work/mnt" > "$work/f3cm.out" 2>&1
    counts=$(python3 -c "import json; v = json.load(open('$work/cmfake-again.json'))['verify']['sectors']; print(v['ok'], v['corrupted'], v['changed'], v['overwritten'])")
    f3counts=$(sed -n 's/^Validating file .* \([0-9]*\)\/ *\([0-9]*\)\/ *\([0-9]*\)\/ *\([0-9]*\).*/\1 \2 \3 \4/p' "$work/f3cm.out" |
      awk '{ a += $1; b += $2; c += $3; d += $4 } END { print a, b, c, d }')
    echo "# CardMark: $counts; f3read: $f3counts (ok, corrupted, changed, overwritten sectors)"
    check "f3read counts CardMark's files on the fake card exactly as CardMark did ($counts)" test "$counts" = "$f3counts"
  else
    not_ok "fake card with ext4"
  fi
else
  skip "ext4 cannot be mounted on a simulated card here"
fi

# Stopped during read-back and carried on: the points after the stop
# are as steady as the rest. Reading is slow here so the stop falls in it.
card good-a1 --size 64MiB -- --set write.bandwidth-mb-s=160 --set read.bandwidth-mb-s=12 || not_ok "a card to stop in read-back"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/err" &
pid=$!
in_read_back () {
  grep -q '^phase=1' "$XDG_DATA_HOME"/cardmark*/verify/*.ini 2> /dev/null &&
    grep -q '^current-offset=[1-9][0-9]\{7\}' "$XDG_DATA_HOME"/cardmark*/verify/*.ini 2> /dev/null
}
for _ in $(seq 600); do in_read_back && break; kill -0 $pid 2> /dev/null || break; sleep 0.05; done
kill -INT $pid
wait $pid
check "stopped in read-back (status 5)" test $? -eq 5
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data --resume --json > "$work/readback.json" 2> "$work/err"
check "carried on, it ends whole (status 0)" test $? -eq 0
check "its read-back points: none above 1.6 times their median" json_check "$work/readback.json" "$steady"

done_testing
