#!/bin/bash
# cli-verify-kill.sh — a whole-card verify killed (SIGKILL) at any moment
# carries on (issue 34): its state is on the computer's disk before the
# writes it describes, so --resume accepts it for the same card and the
# verify ends with the card judged intact, as a run never stopped would.
# On a fast 64 MiB simulated card (8 MiB stretches), the verify is killed
# at moments chosen by conditions, not clocks: right after the state
# names a new stretch, right after it turns to reading back, and at
# random amounts of data the card has taken (its own counters).
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"
need_test_hooks CARDMARK_TEST_VERIFY_FILE_BYTES

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-verify-kill-XXXXXX)
export XDG_DATA_HOME=$work/xdg
export CARDMARK_TEST_VERIFY_FILE_BYTES=$((8 * 1024 * 1024))
card_dir=
cleanup () {
  for p in $(jobs -p); do kill -KILL "$p" 2> /dev/null; done
  wait 2> /dev/null
  umount "$work/mnt" 2> /dev/null
  [ -n "$card_dir" ] && "$here/simcard/simcard-down" "$card_dir"
  rm -rf "$work"
}
trap cleanup EXIT

"$here/simcard/simcard-up" good-a1 --size 64MiB -- --set write.bandwidth-mb-s=200 --set read.bandwidth-mb-s=400 \
  > "$work/card.env" || skip_all "no simulated card here (see tests/simcard)"
. "$work/card.env"
card_dir=$SIMCARD_DIR
udevadm settle 2> /dev/null

state_file () { ls "$XDG_DATA_HOME"/cardmark*/verify/*.ini 2> /dev/null | head -1; }
state_value () { local s; s=$(state_file); [ -n "$s" ] && sed -n "s/^$1=//p" "$s"; }
# Bytes the simulated card has taken and given so far (its counters).
moved () { echo $(( $(sed -n 's/^write_bytes=//p' "$card_dir/mnt/stats") + $(sed -n 's/^read_bytes=//p' "$card_dir/mnt/stats") )); }

seed=${CARDMARK_KILL_SEED:-$(date +%s)}
RANDOM=$seed
echo "# seed $seed (CARDMARK_KILL_SEED=$seed replays these moments)"

# start_verify: a verify of $target, resumed when a state is saved; its
# process in $pid, its words in $work/err.$n.
n=0
start_verify () {
  local resume=()
  n=$((n + 1))
  [ -n "$(state_file)" ] && resume=(--resume)
  "$CARDMARK_CLI" verify "$target" "${extra[@]}" "${resume[@]}" --json > "$work/out.$n" 2> "$work/err.$n" &
  pid=$!
}

# kill_when COMMAND…: kills the verify with SIGKILL once COMMAND
# succeeds; counts it (and says how it ended) when it ended first.
ended=0
kill_when () {
  while kill -0 $pid 2> /dev/null && ! "$@"; do sleep 0.005; done
  if kill -KILL $pid 2> /dev/null; then
    wait $pid 2> /dev/null
    return 0
  fi
  wait $pid
  echo "# run $n ended by itself (status $?) before it could be killed:"
  sed 's/^/#   /' "$work/err.$n"
  ended=$((ended + 1))
  return 1
}

phase_is () { [ "$(state_value phase)" = "$1" ]; }
files_are () { [ "$(state_value files)" = "$1" ]; }
reading_file () { phase_is 1 && [ "$(state_value current-file)" = "$1" ]; }
stopped () { [ "$(ps -o stat= -p $pid | cut -c1)" = T ]; }
margin=$((16 * 1024 * 1024))
moved_past () { [ "$(moved)" -ge "$1" ]; }
# The bytes a run resumed from the saved state still moves, at most:
# the rest of the writes, then the whole read-back, or the rest of it
# (a fresh run plans $total bytes).
left_to_move () {
  local planned
  planned=$(state_value planned-bytes)
  if [ -z "$(state_file)" ]; then echo $((2 * total))
  elif phase_is 0; then echo $((2 * planned - $(state_value written-bytes)))
  else echo $((planned - $(state_value read-bytes)))
  fi
}

# kill_and_resume WHAT BYTES: kills the verify of BYTES at each moment,
# then lets the last one carry on to its end and checks it judged the
# card intact.
kill_and_resume () {
  local what=$1 files last rc stretches left
  total=$2
  stretches=$(( (total - 1) / CARDMARK_TEST_VERIFY_FILE_BYTES ))
  ended=0
  finished_bad=0
  # A new stretch named by the state, at once (before its first save in
  # the stretch), in the first, a middle and the last full stretch.
  for files in 1 $((stretches / 2 + 1)) $stretches; do
    start_verify
    kill_when files_are $files
  done
  # Past the last write, as the state turns to reading back; then as
  # reading a new stretch starts.
  start_verify
  kill_when phase_is 1
  start_verify
  kill_when reading_file 3
  # Random moments, each within what the resumed run has left to move
  # but the last 16 MiB (which the card may take while this script
  # looks); a run with less than twice that left runs to its end, which
  # must be clean, and the next one starts afresh.
  for i in $(seq 8); do
    left=$(left_to_move)
    start_verify
    if [ "$left" -le $((2 * margin)) ]; then
      wait $pid || { echo "# run $n, left to end, ended with status $?"; finished_bad=$((finished_bad + 1)); }
      continue
    fi
    kill_when moved_past $(( $(moved) + (RANDOM * 32768 + RANDOM) % (left - margin) + 1 ))
  done
  # With its verdict kept, before and after its files are removed.
  for moment in verdict-kept files-removed; do
    CARDMARK_VERIFY_STOP_AT=$moment start_verify
    kill_when stopped
  done
  check "$what: every run was killed before it ended" test $ended -eq 0
  check "$what: every run left to end ended clean" test $finished_bad -eq 0
  check "$what: no run refused the saved verify" \
    sh -c "! grep -l -e 'does not belong' -e 'damaged' -e 'No stopped' -e 'appeared' -e 'not a file' $work/err.*"

  start_verify
  wait $pid
  rc=$?
  last=$work/out.$n
  check "$what: the verify carried on after every kill ends clean (status 0)" test $rc -eq 0
  [ $rc = 0 ] || sed 's/^/# /' "$work/err.$n"
  check "$what: it judged every sector it wrote intact" json_check "$last" \
    "r['verify']['checked_bytes'] == r['verify']['written_bytes'] - r['verify']['written_bytes'] % 512 \
     and r['verify']['usable_bytes'] == r['verify']['checked_bytes'] and r['verify']['lost_bytes'] == 0 \
     and r['verify']['checked_bytes'] >= $total // 2 and not r['verify']['bad_regions']" ||
    python3 -c "import json; print('#', json.load(open('$last')).get('verify'))"
  check "$what: and left no state behind" test -z "$(state_file)"
  cp "$last" "$work/last.json"
  rm -f "$work"/err.* "$work"/out.*
}

# A state folder that takes no state (a file where its folder would be,
# which root cannot write in either): refused before the card is touched.
touch "$work/ro"
before=$(sha256sum "$SIMCARD_DEV" | cut -d' ' -f1)
XDG_DATA_HOME=$work/ro "$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/err"
rc=$?
check "a verify whose state cannot be kept fails (status 1)" test $rc -eq 1
check "it says the state cannot be kept, that nothing was written and what to do" \
  file_says "cannot keep where the verify stands.*nothing was written.*Make that folder writable" "$work/err"
check "and the card is unchanged (sha256)" test "$(sha256sum "$SIMCARD_DEV" | cut -d' ' -f1)" = "$before"

# The whole card.
target=$SIMCARD_DEV
extra=(--destroy-data)
kill_and_resume "whole card" $SIMCARD_SIZE
check "whole card: every byte of it checked" json_check "$work/last.json" "r['verify']['checked_bytes'] == $SIMCARD_SIZE"

# A folder on the card: a new file is named before it is made.
mkdir "$work/mnt"
mkfs.ext4 -q -O ^has_journal -E lazy_itable_init=0 "$SIMCARD_DEV" && mount "$SIMCARD_DEV" "$work/mnt" ||
  skip_all "no ext4 on the simulated card"
target=$work/mnt
extra=()
kill_and_resume "folder" $(df -B1 --output=avail "$work/mnt" | tail -1)
check "folder: no .h2w file is left behind" test -z "$(ls "$work/mnt" | grep h2w)"
umount "$work/mnt"

done_testing
