# probe.sh — what the capacity check's shell tests share: a fast
# simulated card, its checksum, the journal folder, and a wait for a probe
# that stopped itself at a named moment (CARDMARK_PROBE_STOP_AT).
#
# SPDX-License-Identifier: GPL-3.0-or-later

simcard=$(cd "$(dirname "$0")/simcard" && pwd)
[ "$(id -u)" = 0 ] || skip_all "the probe needs root for loop devices"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-probe-XXXXXX)
# Journals go to the data folder; keep them out of the user's.
export XDG_DATA_HOME=$work/xdg
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
    --set read.bandwidth-mb-s=2000 --set write.bandwidth-mb-s=2000 \
    --set read.latency-us=20 --set write.latency-us=20 --set write.random-penalty-us=0 \
    > "$work/simcard.env"
  case $? in
    0) . "$work/simcard.env" ;;
    77) skip_all "no simulated card here (see tests/simcard)" ;;
    *) not_ok "simcard-up (factor $factor, cache $cache)"; done_testing ;;
  esac
  head -c $((SIMCARD_REAL_SIZE < 134217728 ? SIMCARD_REAL_SIZE : 134217728)) /dev/urandom |
    dd of="$SIMCARD_DEV" bs=4M oflag=direct status=none
}

# The card's flash, read straight from the simulator's backing file: what
# the card holds once its cache is gone (and no 1 GiB read through FUSE).
elapsed () {
  echo "# $* at ${SECONDS}s"
}

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

