#!/bin/bash
# cli-jobs.sh — the three card jobs as the CLI runs them: each document
# says its kind and is kept in the history, the same card is described
# the same way by all three, `history` lists every kind, and a second
# job on a card that one holds is refused from another process.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
need_simcard_path

simcard=$(cd "$(dirname "$0")/simcard" && pwd)
[ "$(id -u)" = 0 ] || skip_all "the jobs need root for loop devices"

# UDisks names the card; without it every job would leave the name out
# alike, but a name known to one job and not yet to the next would not be.
here=$(dirname "$0")
"$here/env/services-up" || skip_all "the system bus, udev and udisksd could not be started"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-jobs-XXXXXX)
export XDG_DATA_HOME=$work/xdg
history=$XDG_DATA_HOME/cardmark/history
cleanup () {
  [ -n "${pid:-}" ] && kill -9 "$pid" 2>/dev/null
  [ -n "${SIMCARD_DIR:-}" ] && "$simcard/simcard-down" "$SIMCARD_DIR"
  [ -n "${KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

"$simcard/simcard-up" good-a1 --size 96MiB -- --set write.bandwidth-mb-s=80 --set read.bandwidth-mb-s=160 > "$work/simcard.env"
case $? in
  0) . "$work/simcard.env" ;;
  77) skip_all "no simulated card here (see tests/simcard)" ;;
  *) not_ok "simcard-up"; done_testing ;;
esac

# UDisks learns a loop device's backing file a moment after the device;
# the jobs start once it has.
for _ in $(seq 100); do
  udisksctl info -b "$SIMCARD_DEV" 2> /dev/null | grep -q 'BackingFile:.*card.img' && break
  sleep 0.1
done

# The document a job said it kept.
saved () { sed -n 's/^Saved to //p' "$work/err" | tail -1; }

"$CARDMARK_CLI" bench "$SIMCARD_DEV" --only seq-read --save > /dev/null 2> "$work/err"
check "a read-only bench of the card exits 0" test $? -eq 0
cp "$(saved)" "$work/bench.json"
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2> "$work/err"
check "its capacity check exits 0" test $? -eq 0
cp "$(saved)" "$work/capacity.json"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/err"
check "its verify exits 0" test $? -eq 0
cp "$(saved)" "$work/verify.json"

for kind in bench capacity verify; do
  check "the $kind document says its kind" json_check "$work/$kind.json" "r['kind'] == '$kind'"
done
check "the capacity document holds the check's findings" \
  json_check "$work/capacity.json" "r['capacity']['fake'] is False and r['capacity']['real_bytes'] == $SIMCARD_SIZE"
# target.path and mode belong to the run (a raw read, raw writes); the
# card, its device, reader and name are the job's and the same.
same='lambda a, b: all(a["target"][k] == b["target"][k] for k in ("device", "reader", "name")) and a["card"] == b["card"]'
check "bench and capacity check describe the card the same way" \
  python3 -c "import json; f = $same; exit(0 if f(json.load(open('$work/bench.json')), json.load(open('$work/capacity.json'))) else 1)"
check "bench and verify describe the card the same way" \
  python3 -c "import json; f = $same; exit(0 if f(json.load(open('$work/bench.json')), json.load(open('$work/verify.json'))) else 1)"
check "the device is the card's" json_check "$work/verify.json" "r['target']['device'] == '$SIMCARD_DEV'"

"$CARDMARK_CLI" history > "$work/history.txt" 2> "$work/err"
check "history lists the capacity check" grep -q "Capacity check" "$work/history.txt"
check "history lists the verify" grep -q "Full verify" "$work/history.txt"
check "history lists the benchmark by its profile" grep -q "Quick benchmark" "$work/history.txt"

# One job per card across processes: a verify holds the card, so a
# benchmark and a capacity check of it are refused, naming the verify.
# A slow card, so the verify is still running when they try.
"$simcard/simcard-down" "$SIMCARD_DIR"
SIMCARD_DIR=
"$simcard/simcard-up" good-a1 --size 96MiB -- --set write.bandwidth-mb-s=4 > "$work/simcard.env" || not_ok "slow simcard-up"
. "$work/simcard.env"
"$CARDMARK_CLI" verify "$SIMCARD_DEV" --destroy-data > /dev/null 2> "$work/verify-err" &
pid=$!
# This card's lock (cm-card-lock.c), not one a killed run left elsewhere.
lock=/run/lock/cardmark-block-$((16#$(stat -c %t "$SIMCARD_DEV")))-$((16#$(stat -c %T "$SIMCARD_DEV"))).lock
for _ in $(seq 600); do
  grep -q "full verify" "$lock" 2> /dev/null && break
  sleep 0.05
done
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --only seq-read > /dev/null 2> "$work/err"
check "a bench of a card a verify holds exits 1" test $? -eq 1
check "it says the card is busy with the verify, and which process" \
  grep -q "busy: a full verify (cardmark-cli[a-z ]*, process $pid)" "$work/err"
"$CARDMARK_CLI" probe-capacity "$SIMCARD_DEV" > /dev/null 2> "$work/err"
check "a capacity check of it is refused too" grep -q "busy: a full verify" "$work/err"
check "the verify was still running" kill -0 "$pid"
kill -INT "$pid" 2> /dev/null
wait "$pid"
pid=
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --only seq-read > /dev/null 2> "$work/err"
check "once the verify stopped, the card is free again" test $? -eq 0

done_testing
