#!/bin/bash
# cli-probe.sh — cardmark-cli probe-capacity finds a fake card, passes a
# genuine one, and leaves both holding what they held.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
need_simcard_path

simcard=$(cd "$(dirname "$0")/simcard" && pwd)
[ "$(id -u)" = 0 ] || skip_all "the probe needs root for loop devices"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-probe-XXXXXX)
# The probe's journals go to the data folder; keep them out of the user's.
export XDG_DATA_HOME=$work/xdg
genuine=
cleanup () {
  [ -n "$genuine" ] && losetup -d "$genuine" 2>/dev/null
  [ -n "${SIMCARD_DIR:-}" ] && "$simcard/simcard-down" "$SIMCARD_DIR"
  rm -rf "$work"
}
trap cleanup EXIT

# A genuine 192 MiB device full of random bytes.
head -c $((192 * 1024 * 1024)) /dev/urandom > "$work/genuine.img"
genuine=$(losetup -f --show "$work/genuine.img")
before=$(sha256sum < "$genuine")
"$CARDMARK_CLI" probe-capacity "$genuine" --json > "$work/genuine.json"
check "a genuine device passes (exit 0)" test $? -eq 0
check "it is not called fake" json_check "$work/genuine.json" 'r["fake"] is False and r["bad_positions"] == 0'
check "its real capacity is its size" json_check "$work/genuine.json" "r['real_bytes'] == r['reported_bytes'] == $((192 * 1024 * 1024))"
check "it keeps every byte" test "$(sha256sum < "$genuine")" = "$before"

# The simulated fake card: 8× its real size.
"$simcard/simcard-up" fake-8x > "$work/simcard.env"
case $? in
  0) . "$work/simcard.env" ;;
  77) skip_all "no simulated card here (see tests/simcard)" ;;
  *) not_ok "simcard-up fake-8x"; done_testing ;;
esac
head -c "$SIMCARD_REAL_SIZE" /dev/urandom | dd of="$SIMCARD_DEV" bs=4M oflag=direct status=none
before=$(head -c "$SIMCARD_REAL_SIZE" "$SIMCARD_DEV" | sha256sum)

# This card has no cache; tests/cli-probe-cache.sh checks cards that do.
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" --cache-up-to 16M --json > "$work/fake.json"
check "a fake card gives exit status 4" test $? -eq 4
check "it is called fake" json_check "$work/fake.json" 'r["fake"] is True and r["bad_positions"] > 0'
check "the reported size is the size it claims" json_check "$work/fake.json" "r['reported_bytes'] == $SIMCARD_SIZE"
check "the real capacity found is where its storage ends" json_check "$work/fake.json" \
  "r['last_good_bytes'] <= $SIMCARD_REAL_SIZE <= r['real_bytes']"
check "the real part keeps every byte" test "$(head -c "$SIMCARD_REAL_SIZE" "$SIMCARD_DEV" | sha256sum)" = "$before"

"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" --cache-up-to 16M > "$work/fake.txt"
check "the plain report says fake capacity" grep -q "Fake capacity" "$work/fake.txt"

"$CARDMARK_CLI" probe-capacity "$work" 2> "$work/err"
check "a folder is refused with status 1" test $? -eq 1
check "the refusal says a device is needed" grep -q "not a device" "$work/err"
"$CARDMARK_CLI" probe-capacity 2> /dev/null
check "no device is a usage error" test $? -eq 2

# A probe that fails at once (a device too small to probe) ends with its
# message, every time, even on one CPU where the probe's thread may be
# done before the main loop runs.
truncate -s 8M "$work/small.img"
small=$(losetup -f --show "$work/small.img")
hangs=0
for _ in $(seq 10); do
  timeout -s KILL 5 taskset -c 0 "$CARDMARK_CLI" probe-capacity "$small" 2> "$work/err"
  [ $? = 137 ] && hangs=$((hangs + 1))
done
losetup -d "$small"
check "a probe that fails at once never hangs ($hangs of 10 did)" test $hangs -eq 0
check "it says the device is too small" grep -q "too small to probe" "$work/err"

# A write-protected card: nothing was written, so nothing needs putting back.
"$simcard/simcard-down" "$SIMCARD_DIR"
"$simcard/simcard-up" read-only --size 64MiB > "$work/simcard.env" && . "$work/simcard.env"
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" 2> "$work/err"
check "a write-protected card gives status 1" test $? -eq 1
check "it is called write-protected, without a false alarm about lost data" \
  bash -c "grep -q 'write-protected' '$work/err' && ! grep -q 'written back' '$work/err'"

done_testing
