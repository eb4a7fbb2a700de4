#!/bin/bash
# cli-verify-trust.sh — cardmark-cli verify trusts nothing it cannot
# prove (issue 23): it writes and judges through no link, takes no empty
# target for the working folder, believes a saved state only for the card
# that proves it, runs once per card, leaves a state --resume takes after
# any stop (INT, TERM, HUP, QUIT), names what another user planted under
# a .h2w name for what it is (issue 34), fails a run that checked
# nothing, and bounds every number it reads back. Where the card (or a file outside
# it) must stay as it was, its sha256 is compared before and after.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards need root"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-verify-trust-XXXXXX)
export XDG_DATA_HOME=$work/xdg
export CARDMARK_TEST_VERIFY_FILE_BYTES=$((8 * 1024 * 1024))
cards=()
loops=()
# Another user on the machine, who plants files in a card's folder.
user=
if command -v useradd > /dev/null && command -v setpriv > /dev/null && useradd -M -d /nonexistent -s /bin/sh cmvtrust$$; then
  user=cmvtrust$$
fi
as_user () { setpriv --reuid="$user" --regid="$user" --clear-groups -- "$@"; }
cleanup () {
  [ -n "$user" ] && userdel "$user" 2> /dev/null
  for p in $(jobs -p); do kill "$p" 2>/dev/null; done
  wait 2>/dev/null
  umount "$work/mnt" 2>/dev/null
  umount "$work/small" 2>/dev/null
  for l in "${loops[@]}"; do losetup -d "$l"; done
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/mnt" "$work/small"

# Slow enough that a run can be caught while it writes.
slow=(--set write.bandwidth-mb-s=20 --set read.bandwidth-mb-s=80)

card () {
  "$here/simcard/simcard-up" "$@" > "$work/card.env" || return 1
  . "$work/card.env"
  cards+=("$SIMCARD_DIR")
  udevadm settle 2>/dev/null
}

mounted_card () {
  umount "$work/mnt" 2>/dev/null
  card "$@" || return 1
  mkfs.ext4 -q -O ^has_journal -E lazy_itable_init=0 "$SIMCARD_DEV" && mount "$SIMCARD_DEV" "$work/mnt"
}

# wait_for COMMAND…: up to 30 s for COMMAND to succeed.
wait_for () {
  for _ in $(seq 600); do "$@" && return 0; sleep 0.05; done
  return 1
}

state_file () { ls "$XDG_DATA_HOME"/cardmark*/verify/*.ini 2> /dev/null | head -1; }
rm_states () { rm -f "$XDG_DATA_HOME"/cardmark*/verify/*.ini; }
files_at_least () { local s; s=$(state_file); [ -n "$s" ] && grep -qE "^files=([$1-9]|[1-9][0-9])" "$s"; }
card_sum () { sha256sum "$SIMCARD_DEV" | cut -d' ' -f1; }
history_count () { ls "$XDG_DATA_HOME"/cardmark*/history/*.json 2> /dev/null | wc -l; }

# 4. An empty target is a usage error, never the working folder: run
# from a small tmpfs, so that a verify of "." could only fill that.
if mount -t tmpfs -o size=16m tmpfs "$work/small"; then
  (cd "$work/small" && "$CARDMARK_CLI" verify "" > /dev/null 2> "$work/err")
  check "verify \"\" is a usage error (status 2)" test $? -eq 2
  check "it says the target is empty" grep -q "TARGET is empty" "$work/err"
  check "and writes nothing in the working folder" test -z "$(ls "$work/small")"
  umount "$work/small"
else
  skip "no tmpfs for the working folder"
fi

mounted_card good-a1 --size 64MiB -- "${slow[@]}" || skip_all "no simulated card with ext4 here (see tests/simcard)"

# 1. A symlink that appears while the verify writes is not written through.
head -c 1048576 /dev/urandom > "$work/outside"
outside_before=$(sha256sum < "$work/outside")
"$CARDMARK_CLI" verify "$work/mnt" > /dev/null 2> "$work/err" &
pid=$!
wait_for files_at_least 1
n=$(sed -n 's/^files=//p' "$(state_file)")
ln -s "$work/outside" "$work/mnt/$((n + 2)).h2w"
wait $pid
check "a link that appears mid-run stops the verify (status 1)" test $? -eq 1
check "the message names the link and what to do" grep -q "$((n + 2))\.h2w in .* is a link, not a file CardMark wrote.*Remove it" "$work/err"
check "the file the link points to is untouched" test "$(sha256sum < "$work/outside")" = "$outside_before"

# --read-only does not judge the card by the link either.
"$CARDMARK_CLI" verify "$work/mnt" --read-only --json > "$work/ro.json" 2> "$work/err"
check "--read-only with a link among the files checks the rest (status 0)" test $? -eq 0
check "its result names the link as not read" json_check "$work/ro.json" \
  "any('$((n + 2)).h2w' in note for note in r['notes'])"
check "and counts only what is on the card" json_check "$work/ro.json" \
  "r['verify']['checked_bytes'] <= $n * 8 * 1024 * 1024 + 8 * 1024 * 1024"
check "the file the link points to is still untouched" test "$(sha256sum < "$work/outside")" = "$outside_before"

# 9. --read-only keeps no state for a later --resume to replay.
rm_states
"$CARDMARK_CLI" verify "$work/mnt" --read-only > /dev/null 2> "$work/err" &
pid=$!
sleep 0.2
kill -INT $pid
wait $pid
"$CARDMARK_CLI" verify "$work/mnt" --read-only > /dev/null 2>&1
check "--read-only, stopped or finished, leaves no state file" test -z "$(state_file)"

# 9. Nothing readable: only a link. A failure, not a clean verdict, not saved.
rm -f "$work/mnt"/*.h2w
ln -s "$work/outside" "$work/mnt/1.h2w"
before=$(history_count)
"$CARDMARK_CLI" verify "$work/mnt" --read-only > "$work/out" 2> "$work/err"
check "a --read-only run with nothing on the card to check fails (status 1)" test $? -eq 1
check "it says nothing could be checked" file_says "Nothing on .* could be checked" "$work/err"
check "and is not called clean" bash -c "! grep -q 'Every byte' '$work/out'"
check "and is not saved in the history" test "$(history_count)" = "$before"
rm -f "$work/mnt/1.h2w"; rm_states

# 6. Two verifies of one folder at once: the second is refused.
"$CARDMARK_CLI" verify "$work/mnt" > /dev/null 2> "$work/err1" &
pid=$!
wait_for files_at_least 1
"$CARDMARK_CLI" verify "$work/mnt" --resume > /dev/null 2> "$work/err2"
check "a second verify of the same folder is refused (status 1)" test $? -eq 1
check "it says a check of this card is already running" grep -q "This card is busy: a full verify" "$work/err2"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --resume > /dev/null 2> "$work/err2"
check "so is one through the card's device" grep -q "This card is busy: a full verify" "$work/err2"
wait $pid
check "the first one ends clean (status 0)" test $? -eq 0
check "and its files are gone" test -z "$(ls "$work/mnt" | grep h2w)"

# 7 and the signals: INT, TERM, HUP and QUIT each stop a run; the files
# and the state always agree (no 0-byte file, numbers as many as files),
# and --resume carries on to the same report as a run never stopped.
"$CARDMARK_CLI" verify "$work/mnt" --json > "$work/whole.json" 2> /dev/null
check "an uninterrupted verify of the folder exits 0" test $? -eq 0
resume=()
for sig in INT TERM HUP QUIT INT INT; do
  "$CARDMARK_CLI" verify "$work/mnt" "${resume[@]}" --json > "$work/resumed.json" 2> "$work/err" &
  pid=$!
  # Stop it at a file boundary as often as not: right after a new file starts.
  first=$(sed -n 's/^files=//p' "$(state_file)" 2> /dev/null)
  wait_for files_at_least $(( ${first:-0} + 1 ))
  kill -$sig $pid
  wait $pid
  rc=$?
  [ "$rc" = 0 ] && break  # it finished first: nothing left to stop
  check "SIG$sig stops the verify with status 5" test $rc -eq 5
  check "and says how to carry on" grep -q -- "--resume" "$work/err"
  check "no 0-byte .h2w is left behind after SIG$sig" test -z "$(find "$work/mnt" -name '*.h2w' -size 0)"
  s=$(state_file)
  check "the state names as many files as it counts after SIG$sig" python3 - "$s" <<'PY'
import sys
kv = dict(l.rstrip("\n").split("=", 1) for l in open(sys.argv[1]) if "=" in l)
numbers = [x for x in kv.get("numbers", "").split(";") if x]
sys.exit(0 if len(numbers) == int(kv["files"]) else 1)
PY
  resume=(--resume)
done
if [ "$rc" != 0 ]; then
  "$CARDMARK_CLI" verify "$work/mnt" --resume --json > "$work/resumed.json" 2> "$work/err"
  check "the verify stopped by every signal resumes and exits 0" test $? -eq 0
fi
check "it gives the same report as the uninterrupted run" python3 - "$work/whole.json" "$work/resumed.json" <<'PY'
import json, sys
a, b = (json.load(open(p))["verify"] for p in sys.argv[1:3])
keys = ["files", "written_bytes", "checked_bytes", "sectors", "usable_bytes", "lost_bytes", "bad_regions"]
diff = [k for k in keys if a[k] != b[k]]
if diff:
    print("# differ: %s" % [(k, a[k], b[k]) for k in diff], file=sys.stderr)
sys.exit(1 if diff else 0)
PY

# Issue 34, case 10: what another user plants under a .h2w name in the
# card's folder (here shared with them, 0777) while a verify is stopped
# is named on --resume for what it is (a link, a folder, a pipe, a file
# the verify did not make), never called a write-protected card; the
# card and what a link points to stay as they were, and the state is
# kept, so the verify carries on once it is removed.
if [ -n "$user" ]; then
  mount -o remount,noatime "$work/mnt"
  rm_states
  "$CARDMARK_CLI" verify "$work/mnt" > /dev/null 2> "$work/err" &
  pid=$!
  wait_for files_at_least 2
  kill -INT $pid
  wait $pid
  s=$(state_file)
  files=$(sed -n 's/^files=//p' "$s")
  current=$(( $(sed -n 's/^current-file=//p' "$s") + 1 ))
  [ "$current" -le "$files" ] || current=1
  next=$((files + 1))
  chmod 0711 "$work"
  chmod 0777 "$work/mnt"
  # plant NAME HOW WORDS: NAME as the user plants it (HOW: link, folder,
  # pipe or file), then --resume must name it in WORDS (a pattern).
  plant () {
    local name=$1 how=$2 words=$3 before after
    [ -e "$work/mnt/$name" ] && mv "$work/mnt/$name" "$work/$name.kept"
    case $how in
      link) as_user ln -s "$work/outside" "$work/mnt/$name" ;;
      folder) as_user mkdir "$work/mnt/$name" ;;
      pipe) as_user mkfifo "$work/mnt/$name" ;;
      file) as_user sh -c "echo planted > '$work/mnt/$name'" ;;
    esac
    sync
    before=$(card_sum)
    "$CARDMARK_CLI" verify "$work/mnt" --resume > /dev/null 2> "$work/err"
    check "a $how planted as $name: --resume refuses it (status 1)" test $? -eq 1
    check "… saying it is $words and what to do" file_says "$name $words.*Remove it, then carry on\." "$work/err"
    check "… and the CLI's own way to carry on, naming the folder" file_says "cardmark-cli verify $work/mnt --resume" "$work/err"
    check "… not that the card is write-protected" sh -c "! grep -qi 'write-protected' '$work/err'"
    sync
    after=$(card_sum)
    check "… with the card unchanged (sha256)" test "$after" = "$before"
    check "… and the state kept" test -n "$(state_file)"
    rm -rf "$work/mnt/$name"
    [ -e "$work/$name.kept" ] && mv "$work/$name.kept" "$work/mnt/$name"
  }
  plant $current.h2w link "in .* is a link, not a file CardMark wrote"
  plant 1.h2w pipe "in .* is not a file on the card that CardMark wrote"
  plant $next.h2w folder "in .* is a folder, not a file CardMark wrote"
  plant $next.h2w file "appeared in .*this verify did not make it"
  check "the file the link pointed to is untouched" test "$(sha256sum < "$work/outside")" = "$outside_before"
  "$CARDMARK_CLI" verify "$work/mnt" --resume > /dev/null 2> "$work/err"
  check "once they are removed, the verify carries on to its end (status 0)" test $? -eq 0
  chmod 0755 "$work/mnt"
  chmod 0700 "$work"
else
  skip "no unprivileged user to plant files as (useradd and setpriv are needed)"
fi
umount "$work/mnt"

# 5. --resume on another card under the same name: the device stopped
# mid-run, then its content replaced (as another card of the same size in
# the same reader). The state is refused, kept, and the card untouched.
card good-a1 --size 64MiB -- "${slow[@]}" || not_ok "device card"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/err" &
pid=$!
wait_for files_at_least 2
kill -INT $pid
wait $pid
check "a whole-device verify stopped by Ctrl-C exits 5" test $? -eq 5
s=$(state_file)
cp "$s" "$work/saved.ini"
dd if=/dev/urandom of="$SIMCARD_DEV" bs=1M count=64 oflag=direct status=none
before=$(card_sum)
history_before=$(history_count)
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data --resume > "$work/out" 2> "$work/err"
check "--resume on a card that does not hold the stopped run's data is refused (status 1)" test $? -eq 1
check "it says the saved verify is not this card's and what to do" grep -q "does not belong to the card.*Start a new verify.*delete" "$work/err"
check "the card is unchanged (sha256)" test "$(card_sum)" = "$before"
check "the state is kept, not deleted" cmp -s "$s" "$work/saved.ini"
check "and nothing was saved in the history" test "$(history_count)" = "$history_before"

# 10. A state with a value out of range, its checksum made to match: damaged.
# And one edited without fixing the checksum: damaged too.
python3 - "$s" <<'PY'
import hashlib, sys
path = sys.argv[1]
text = open(path).read()
body = text[:text.index("[checksum]\n")]
body = "\n".join("written-bytes=562949953421312" if l.startswith("written-bytes=") else l for l in body.split("\n"))
open(path, "w").write(body + "[checksum]\nsha256=" + hashlib.sha256(body.encode()).hexdigest() + "\n")
PY
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data --resume > /dev/null 2> "$work/err"
check "a state saying 512 TB were written on a 64 MiB card is refused (status 1)" test $? -eq 1
check "as damaged, with what to do" grep -q "damaged.*delete" "$work/err"
check "the card is unchanged (sha256)" test "$(card_sum)" = "$before"
sed 's/^written-bytes=/written-bytes=1/' "$work/saved.ini" > "$s"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data --resume > /dev/null 2> "$work/err"
check "a state edited without its checksum is refused as damaged" grep -q "damaged" "$work/err"
check "the card is unchanged (sha256)" test "$(card_sum)" = "$before"
check "and the state is still there" test -e "$s"
rm -f "$s"

# 6 for a device: a second whole-device verify of the same card is refused.
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/err1" &
pid=$!
wait_for files_at_least 1
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/err2"
check "a second verify of the same device is refused (status 1)" test $? -eq 1
check "it says a check of this card is already running" grep -q "This card is busy: a full verify" "$work/err2"
wait $pid
check "the first one ends clean (status 0)" test $? -eq 0

# 9. A 0-byte device (a reader with no card): a failure, not a verdict.
truncate -s 0 "$work/empty.img"
if loop=$(losetup -f --show "$work/empty.img" 2> /dev/null); then
  loops+=("$loop")
  before=$(history_count)
  "$CARDMARK_CLI" verify "$loop" --destroy-data > "$work/out" 2> "$work/err"
  check "verify of a 0-byte device fails (status 1)" test $? -eq 1
  check "it says there is nothing to verify" grep -q "nothing to verify" "$work/err"
  check "and saves nothing" test "$(history_count)" = "$before"
else
  skip "no loop device for an empty file"
fi

done_testing
