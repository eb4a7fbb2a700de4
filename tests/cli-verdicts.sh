#!/bin/bash
# cli-verdicts.sh — cardmark-cli bench --claim on simulated cards whose
# speeds are known, end to end: engine, verdicts, exit status.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

simcard=$(cd "$(dirname "$0")/simcard" && pwd)
# The simulator built next to the CLI under test, not another build's.
: "${CARDMARK_SIMCARD:=$(dirname "$CARDMARK_CLI")/../../tests/simcard/cm-simcard}"
export CARDMARK_SIMCARD

[ -x "$simcard/simcard-up" ] || skip_all "the simulated card is not in this tree"
[ -x "$CARDMARK_SIMCARD" ] || skip_all "cm-simcard is not built (needs libfuse3-dev)"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-verdicts-XXXXXX)
SIMCARD_DIR=
cleanup () {
  [ -n "$SIMCARD_DIR" ] && "$simcard/simcard-down" "$SIMCARD_DIR"
  rm -rf "$work"
}
trap cleanup EXIT

# bench PROFILE CLAIMS TESTS [SIMCARD-UP OPTIONS…]: brings the card up, measures it raw (it is
# unmounted, and raw write mode puts every byte back) with only the TESTS
# the CLAIMS are judged on (the sequential write for the speed classes,
# the random 4K ones too for A1: cli-raw-mode runs the whole plan), takes
# it down. Leaves the document in $work/PROFILE.json and the exit status
# in $status.
bench () {
  local profile=$1 claims=$2 tests=$3 up rc
  shift 3

  up=$("$simcard/simcard-up" "$profile" "$@")
  rc=$?
  [ $rc -eq 77 ] && skip_all "this machine cannot host a simulated card"
  if [ $rc -ne 0 ]; then
    not_ok "$profile: simcard-up failed ($rc)"
    return 1
  fi
  eval "$up"
  echo "$up" | sed 's/^/# /'

  "$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --allow-write --claim "$claims" --only "$tests" --json \
    > "$work/$profile.json" 2> "$work/$profile.err"
  status=$?
  sed 's/^/# /' "$work/$profile.err"

  "$simcard/simcard-down" "$SIMCARD_DIR"
  SIMCARD_DIR=
  return 0
}

# claim_is FILE CLASS STATUS
claim_is () {
  json_check "$1" '[c["status"] for c in r["claims"] if c["class"] == "'"$2"'"] == ["'"$3"'"]' && return 0
  python3 -c 'import json, sys
for c in json.load(open(sys.argv[1]))["claims"]:
    if c["class"] == sys.argv[2]:
        print("# %s %s: %s" % (c["class"], c["status"], c["reason"]))
        for k in c["criteria"]:
            print("#   %s %s %.1f / %.0f %s" % (k["name"], k["test"], k["measured"], k["required"], k["status"]))' "$1" "$2"
  return 1
}

# A good A1 card, but not U3.
if bench good-a1 A1,U1,U3 seq-write,rand-read-4k,rand-write-4k; then
  f=$work/good-a1.json
  check "good-a1: exit status 3 (a claim is below)" test "$status" -eq 3
  check "good-a1: claims come from the label" json_check "$f" 'all(c["source"] == "label" for c in r["claims"])'
  check "good-a1: meets A1" claim_is "$f" A1 meets
  check "good-a1: meets U1" claim_is "$f" U1 meets
  check "good-a1: below U3" claim_is "$f" U3 below
  check "good-a1: the summary names U3" json_check "$f" 'r["summary"].startswith("Below its U3 label")'
fi

# Fast sequential writes, slow random access: a video card, not an OS card.
if bench seq-fast-rand-slow A1,U3,V30 seq-write,rand-read-4k,rand-write-4k; then
  f=$work/seq-fast-rand-slow.json
  check "seq-fast-rand-slow: exit status 3" test "$status" -eq 3
  check "seq-fast-rand-slow: meets U3" claim_is "$f" U3 meets
  check "seq-fast-rand-slow: meets V30" claim_is "$f" V30 meets
  check "seq-fast-rand-slow: below A1" claim_is "$f" A1 below
  check "seq-fast-rand-slow: A1 misses on random IOPS, not on writes" json_check "$f" \
    'any(k["unit"] == "IOPS" and k["status"] == "below" for c in r["claims"] if c["class"] == "A1" for k in c["criteria"])'
fi

# A slow C4 card. Small, so that raw mode's read of the area before it
# writes takes seconds, not half a minute: the classes judged here are
# judged on the sequential write alone.
if bench slow-c4 C4,C10,U1 seq-write --size 64MiB; then
  f=$work/slow-c4.json
  check "slow-c4: exit status 3" test "$status" -eq 3
  check "slow-c4: meets C4" claim_is "$f" C4 meets
  check "slow-c4: below C10" claim_is "$f" C10 below
  check "slow-c4: below U1" claim_is "$f" U1 below
fi

done_testing
