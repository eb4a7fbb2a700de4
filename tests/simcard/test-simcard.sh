#!/bin/bash
# test-simcard.sh — the simulated card delivers what its profile models.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Brings up each profile, measures it through the loop device with fio
# (O_DIRECT) and checks the figures against the ones cm-simcard computes from
# the profile file (--print-model), within ±20 %. Then the faults: a fake card
# wraps, a read-only card refuses writes, a failing card returns EIO, a
# card with a volatile cache loses at a power cut what its model says, and
# simcard-down leaves no loop device behind.

here=${SIMCARD_SRCDIR:-$(cd "$(dirname "$0")" && pwd)}
CARDMARK_CLI=${CARDMARK_CLI:-unused}
source "$here/../lib/tap.sh"

[ "$(id -u)" = 0 ] || skip_all "the simulated card needs root (FUSE + losetup)"
command -v fio > /dev/null || skip_all "fio is not installed"

up="$here/simcard-up"
down="$here/simcard-down"
dirs=()
cleanup () {
  for d in "${dirs[@]}"; do "$down" "$d" > /dev/null 2>&1; done
  rm -rf "$scratch"
}
scratch=$(mktemp -d "${TMPDIR:-/tmp}/test-simcard.XXXXXX")
trap cleanup EXIT

# card_up PROFILE [SIMCARD-UP OPTIONS…]: sets SIMCARD_* in this shell, or
# skips everything.
card_up () {
  local out rc
  unset SIMCARD_DEV SIMCARD_DIR SIMCARD_PID
  out=$("$up" "$@" 2> "$scratch/up.err")
  rc=$?
  [ $rc = 77 ] && skip_all "$(cat "$scratch/up.err")"
  if [ $rc != 0 ]; then
    not_ok "simcard-up $1: $(cat "$scratch/up.err")"
    return 1
  fi
  eval "$out"
  dirs+=("$SIMCARD_DIR")
  # The kernel may still be probing the new device (udev, blkid); let it.
  command -v udevadm > /dev/null && udevadm settle -t 5 2> /dev/null
  return 0
}

# no_loop_left DIR: no loop device is backed by a file under DIR.
no_loop_left () {
  ! grep -qs "^$1/" /sys/block/loop*/loop/backing_file
}

card_down () {
  local dir=$SIMCARD_DIR
  "$down" "$dir"
  check "simcard-down $1 exits 0" test $? -eq 0
  check "simcard-down $1 leaves no loop device" no_loop_left "$dir"
  check "simcard-down $1 removes its folder" test ! -e "$dir"
}

# fio_figure FIELD ARGS…: one figure from fio's terse output, for the loop
# device, O_DIRECT. FIELD is mbr/mbw (MB/s, 10^6 bytes) or iopsr/iopsw.
fio_figure () {
  local field=$1
  shift
  fio --name=simcard --filename="$SIMCARD_DEV" --direct=1 --ioengine=psync \
      --output-format=terse --terse-version=3 "$@" 2> "$scratch/fio.err" |
    awk -F';' -v f="$field" '
      f == "mbr"   { printf "%.2f\n", $7 * 1024 / 1e6 }
      f == "mbw"   { printf "%.2f\n", $48 * 1024 / 1e6 }
      f == "iopsr" { printf "%.0f\n", $8 }
      f == "iopsw" { printf "%.0f\n", $49 }'
}

# fails COMMAND…: succeeds when the command fails (check cannot take "!").
fails () {
  ! "$@"
}

within () {
  awk -v m="$1" -v e="$2" 'BEGIN { exit !(m >= 0.8 * e && m <= 1.2 * e) }'
}

# measure NAME EXPECTED FIELD FIO-ARGS…: measured within ±20 % of the model.
# A busy machine only makes the emulator slower, so a figure that is low is
# measured up to three times before it counts as a failure; one that is too
# high is a modelling error and fails at once.
measure () {
  local name=$1 expected=$2 field=$3 got attempt
  shift 3
  for attempt in 1 2 3; do
    got=$(fio_figure "$field" "$@")
    echo "# $name: measured $got, model $expected (attempt $attempt)"
    eval "measured_${name//-/_}=\$got"
    within "$got" "$expected" && break
    awk -v m="$got" -v e="$expected" 'BEGIN { exit !(m > 1.2 * e) }' && break
  done
  check "$profile: $name $got within 20 % of the model's $expected" within "$got" "$expected"
}

seq_area=$((64 * 1024 * 1024))

for profile in good-a1 seq-fast-rand-slow slow-c4 a2-queued; do
  card_up "$profile" || continue
  check "$profile: the device reports the profile's size" \
    test "$(blockdev --getsize64 "$SIMCARD_DEV")" = "$SIMCARD_SIZE"
  check "$profile: does not wear out (wear is off by default)" \
    test "$SIMCARD_WEAR_FIRST_ROUND" = 0

  measure seq-write "$SIMCARD_SEQ_WRITE_MB_S" mbw --rw=write --bs=4M --size=$seq_area
  measure seq-read "$SIMCARD_SEQ_READ_MB_S" mbr --rw=read --bs=4M --size=$seq_area
  measure rand-read-4k "$SIMCARD_RAND_READ_IOPS" iopsr \
    --rw=randread --bs=4k --time_based --runtime=3
  measure rand-write-4k "$SIMCARD_RAND_WRITE_IOPS" iopsw \
    --rw=randwrite --bs=4k --time_based --runtime=3

  if [ "$SIMCARD_QUEUE" -gt 1 ]; then
    measure rand-read-4k-qd32 "$SIMCARD_RAND_READ_IOPS_QD32" iopsr \
      --rw=randread --bs=4k --time_based --runtime=3 --ioengine=libaio --iodepth=32
    measure rand-write-4k-qd32 "$SIMCARD_RAND_WRITE_IOPS_QD32" iopsw \
      --rw=randwrite --bs=4k --time_based --runtime=3 --ioengine=libaio --iodepth=32
    check "$profile: queueing multiplies random read IOPS (QD32 $measured_rand_read_4k_qd32 vs QD1 $measured_rand_read_4k)" \
      awk -v a="$measured_rand_read_4k_qd32" -v b="$measured_rand_read_4k" 'BEGIN { exit !(a > 4 * b) }'
  fi
  card_down "$profile"
done

# A fake card: a pattern written at the real size lands on offset 0.
if card_up fake-8x; then
  check "fake-8x: reports 8 times its real size" \
    test "$SIMCARD_SIZE" -eq $((8 * SIMCARD_REAL_SIZE))
  check "fake-8x: the device shows the reported size" \
    test "$(blockdev --getsize64 "$SIMCARD_DEV")" = "$SIMCARD_SIZE"
  head -c 1048576 /dev/urandom > "$scratch/first"
  head -c 1048576 /dev/urandom > "$scratch/second"
  dd if="$scratch/first" of="$SIMCARD_DEV" bs=1M oflag=direct status=none
  dd if="$scratch/second" of="$SIMCARD_DEV" bs=1M oflag=direct status=none \
    seek=$((SIMCARD_REAL_SIZE / 1048576))
  dd if="$SIMCARD_DEV" of="$scratch/back" bs=1M count=1 iflag=direct status=none
  check "fake-8x: offset 0 holds what was written at the real size" cmp -s "$scratch/back" "$scratch/second"
  check "fake-8x: and no longer what was written at offset 0" fails cmp -s "$scratch/back" "$scratch/first"

  # A card pulled out: the loop goes away, the daemon stays up.
  losetup -d "$SIMCARD_DEV"
  sleep 0.5
  check "fake-8x: the daemon survives the loop device going away" kill -0 "$SIMCARD_PID"
  check "fake-8x: the card file still answers after the detach" \
    dd if="$SIMCARD_DIR/mnt/card.img" of=/dev/null bs=4k count=1 iflag=direct status=none
  card_down fake-8x
fi

# A write-protected card.
if card_up read-only; then
  check "read-only: losetup attached it read-only (the card refused a writable open)" \
    test "$(blockdev --getro "$SIMCARD_DEV")" = 1
  check "read-only: reads work" \
    dd if="$SIMCARD_DEV" of=/dev/null bs=4k count=16 iflag=direct status=none
  check "read-only: a write is refused" \
    fails dd if=/dev/zero of="$SIMCARD_DEV" bs=4k count=1 oflag=direct status=none
  check "read-only: writing to the card file fails with EROFS" \
    bash -c "dd if=/dev/zero of='$SIMCARD_DIR/mnt/card.img' bs=4k count=1 conv=notrunc oflag=direct 2>&1 | grep -q 'Read-only file system'"
  card_down read-only
fi

# A card that wears out: every round writes the whole card and reads it
# back; the share of sectors that come back wrong is the model's, round by
# round, starting in the modelled first round, and never an I/O error.
if card_up good-a1 --size 8MiB -- --set wear.writes=3 --set wear.spread=0.5 \
     --set write.bandwidth-mb-s=200 --set read.bandwidth-mb-s=400; then
  read -r -a shares <<< "$SIMCARD_WEAR_BAD_SHARE"
  check "wear: the model names a first bad round ($SIMCARD_WEAR_FIRST_ROUND)" \
    test "$SIMCARD_WEAR_FIRST_ROUND" -ge 1
  check "wear: the model reaches a fully worn card (${#shares[@]} rounds)" \
    test "${#shares[@]}" -ge "$SIMCARD_WEAR_FIRST_ROUND"
  for ((round = 1; round <= ${#shares[@]}; round++)); do
    head -c "$SIMCARD_SIZE" /dev/urandom > "$scratch/round"
    dd if="$scratch/round" of="$SIMCARD_DEV" bs=512K oflag=direct status=none
    check "wear: round $round writes without an I/O error" test $? -eq 0
    dd if="$SIMCARD_DEV" of="$scratch/back" bs=512K iflag=direct status=none
    check "wear: round $round reads back without an I/O error" test $? -eq 0
    share=$(python3 - "$scratch/round" "$scratch/back" <<'PY'
import sys
a = open(sys.argv[1], 'rb').read()
b = open(sys.argv[2], 'rb').read()
n = len(a) // 512
bad = sum(1 for i in range(n) if a[i*512:(i+1)*512] != b[i*512:(i+1)*512])
print("%.6f" % (bad / n))
PY
)
    expected=${shares[$((round - 1))]}
    echo "# wear: round $round: $share of sectors bad, model $expected"
    check "wear: round $round has the modelled share of bad sectors ($share vs $expected)" \
      awk -v m="$share" -v e="$expected" 'BEGIN { exit !(m - e < 1e-5 && e - m < 1e-5) }'
    if [ "$round" -lt "$SIMCARD_WEAR_FIRST_ROUND" ]; then
      check "wear: round $round, before the first bad round, is whole" test "$share" = 0.000000
    elif [ "$round" = "$SIMCARD_WEAR_FIRST_ROUND" ]; then
      check "wear: the first bad round has bad sectors" test "$share" != 0.000000
    fi
  done
  check "wear: the daemon counted worn reads" grep -q '^worn_reads=[1-9]' "$SIMCARD_DIR/mnt/stats"
  card_down wear
fi

# Power: a card with a volatile write cache, cut by SIGPWR and brought
# back by SIGUSR2, or by "off" and "on" in mnt/power. stat_of KEY: one line of the daemon's stats.
stat_of () {
  sed -n "s/^$1=//p" "$SIMCARD_DIR/mnt/stats"
}

# wait_power on|off: until the daemon says the power is so (it acts on the
# signal in a thread of its own).
wait_power () {
  local _
  for _ in $(seq 200); do
    [ "$(stat_of power)" = "$1" ] && return 0
    sleep 0.05
  done
  return 1
}

# power_cycle NAME [file]: the power cut and brought back by signals, or
# through the mount's power file.
power_cycle () {
  if [ "${2:-}" = file ]; then
    echo off > "$SIMCARD_DIR/mnt/power"
    check "$1: the power file says off" test "$(cat "$SIMCARD_DIR/mnt/power")" = off
  else
    kill -PWR "$SIMCARD_PID"
  fi
  check "$1: the power goes off" wait_power off
  check "$1: a read fails while the power is off" \
    fails dd if="$SIMCARD_DEV" of=/dev/null bs=4k count=1 iflag=direct status=none 2> /dev/null
  if [ "${2:-}" = file ]; then
    echo on > "$SIMCARD_DIR/mnt/power"
  else
    kill -USR2 "$SIMCARD_PID"
  fi
  check "$1: the power comes back" wait_power on
}

# block_put N FILE [DD FLAGS…]: FILE written at 4 KiB block N, O_DIRECT.
block_put () {
  local n=$1 file=$2
  shift 2
  dd if="$file" of="$SIMCARD_DEV" bs=4k seek="$n" oflag=direct status=none "$@"
}

block_is () {
  dd if="$SIMCARD_DEV" bs=4k skip="$1" count=1 iflag=direct status=none | cmp -s - "$2"
}

fast=(--size 8MiB -- --set write.bandwidth-mb-s=200 --set read.bandwidth-mb-s=400)

# A daemon that does not know the power options would fail to mount, and
# card_up would skip: ask the model first.
if [ -n "${CARDMARK_SIMCARD:-}" ]; then
  check "power: cm-simcard models a volatile cache" \
    bash -c "'$CARDMARK_SIMCARD' --profile '$here/profiles/good-a1.ini' --volatile-cache --print-model | grep -qx SIMCARD_VOLATILE_CACHE=1"
fi

if card_up good-a1 "${fast[@]}" --volatile-cache; then
  check "honest: the model has a volatile cache" test "$SIMCARD_VOLATILE_CACHE" = 1
  check "honest: and a flush that does not lie" test "$SIMCARD_LYING_FLUSH" = 0
  head -c 4096 /dev/urandom > "$scratch/flushed"
  head -c 4096 /dev/urandom > "$scratch/unflushed"
  before=$(stat_of flushes)
  block_put 0 "$scratch/flushed" conv=fsync
  block_put 1 "$scratch/flushed" conv=fsync
  after=$(stat_of flushes)
  echo "# honest: flushes seen by the daemon: $before before, $after after two fsyncs on $SIMCARD_DEV"
  check "honest: a flush on $SIMCARD_DEV reaches the daemon ($before -> $after)" test "$after" -gt "$before"
  block_put 8 "$scratch/unflushed"
  block_put 9 "$scratch/unflushed"
  check "honest: unflushed writes sit in the cache" test "$(stat_of cache_writes)" = 2
  check "honest: reads see the cache" block_is 8 "$scratch/unflushed"
  check "honest: the backing file does not hold them yet" \
    fails cmp -s -i 0:$((8 * 4096)) -n 4096 "$scratch/unflushed" "$SIMCARD_DIR/backing.img"
  check "honest: the backing file holds the flushed ones" \
    cmp -s -i 0:4096 -n 4096 "$scratch/flushed" "$SIMCARD_DIR/backing.img"
  power_cycle honest
  check "honest: the cut dropped the unflushed writes" test "$(stat_of cut_dropped_writes)" = 2
  check "honest: and lost nothing flushed" test "$(stat_of cut_lost_flushed_writes)" = 0
  check "honest: flushed block 0 reads back" block_is 0 "$scratch/flushed"
  check "honest: flushed block 1 reads back" block_is 1 "$scratch/flushed"
  check "honest: unflushed block 8 is gone" fails block_is 8 "$scratch/unflushed"
  check "honest: unflushed block 9 is gone" fails block_is 9 "$scratch/unflushed"
  check "honest: writes work again after the power is back" block_put 8 "$scratch/unflushed" conv=fsync
  check "honest: and read back" block_is 8 "$scratch/unflushed"
  block_put 9 "$scratch/flushed"
  kill -USR1 "$SIMCARD_PID"
  check "honest: a pulled card loses its power too" wait_power off
  kill -USR2 "$SIMCARD_PID"
  check "honest: and gets it back when put back" wait_power on
  check "honest: the pull dropped the unflushed write" test "$(stat_of cut_dropped_writes)" = 1
  check "honest: so it is not there" fails block_is 9 "$scratch/flushed"
  card_down honest
fi

# A card whose flush lies: each record written and flushed; after the cut,
# the records that are gone are the ones the model says it dropped.
if card_up good-a1 "${fast[@]}" --lying-flush 3; then
  check "lying: the model loses flushed writes" test "$SIMCARD_LYING_FLUSH" -gt 0
  check "lying: and has a volatile cache" test "$SIMCARD_VOLATILE_CACHE" = 1
  for n in $(seq 0 7); do
    head -c 4096 /dev/urandom > "$scratch/record$n"
    block_put "$n" "$scratch/record$n" conv=fsync
  done
  power_cycle lying file
  gone=()
  for n in $(seq 0 7); do
    block_is "$n" "$scratch/record$n" || gone+=($((n * 4096)))
  done
  found=$(IFS=,; echo "${gone[*]}")
  said=$(stat_of cut_lost_flushed_offsets)
  echo "# lying: records gone at $found; the model dropped $said ($(stat_of cut_lost_flushed_writes) writes)"
  check "lying: flushed records were lost" test "${#gone[@]}" -gt 0
  check "lying: as many as the model's lying-flush" test "${#gone[@]}" = "$SIMCARD_LYING_FLUSH"
  check "lying: as many as it reports" test "${#gone[@]}" = "$(stat_of cut_lost_flushed_writes)"
  check "lying: exactly where it reports" test "$found" = "$said"
  card_down lying
fi

# A card that damages its neighbours: a reference area written and
# flushed, one record written inside it, the cut; the sectors that differ
# from the reference, outside the record, are the ones the model damaged.
if card_up good-a1 "${fast[@]}" --collateral 5; then
  check "collateral: the model damages sectors" test "$SIMCARD_COLLATERAL" -gt 0
  head -c 65536 /dev/urandom > "$scratch/reference"
  head -c 4096 /dev/urandom > "$scratch/record"
  dd if="$scratch/reference" of="$SIMCARD_DEV" bs=64k oflag=direct conv=fsync status=none
  block_put 4 "$scratch/record" conv=fsync
  power_cycle collateral
  dd if="$SIMCARD_DEV" of="$scratch/back" bs=64k count=1 iflag=direct status=none
  check "collateral: the flushed record is intact" block_is 4 "$scratch/record"
  damaged=$(python3 - "$scratch/reference" "$scratch/back" <<'PY'
import sys
a = open(sys.argv[1], 'rb').read()
b = open(sys.argv[2], 'rb').read()
record = range(4 * 4096, 5 * 4096)
bad = [i for i in range(0, len(a), 512) if i not in record and a[i:i+512] != b[i:i+512]]
print(len(bad), bad[0] if bad else -1, int(all(y - x == 512 for x, y in zip(bad, bad[1:]))))
PY
)
  read -r n_bad first_bad contiguous <<< "$damaged"
  echo "# collateral: $n_bad damaged sectors from $first_bad; the model says $(stat_of cut_collateral_sectors) from $(stat_of cut_collateral_offset)"
  check "collateral: damage found outside the record" test "$n_bad" -gt 0
  check "collateral: as many sectors as the model reports" test "$n_bad" = "$(stat_of cut_collateral_sectors)"
  check "collateral: where the model reports" test "$first_bad" = "$(stat_of cut_collateral_offset)"
  check "collateral: in one run" test "$contiguous" = 1
  card_down collateral
fi

# A card that dies: EIO once its commands run out.
if card_up failing; then
  dd if="$SIMCARD_DEV" of=/dev/null bs=4k count=$((2 * SIMCARD_FAIL_AFTER)) \
    iflag=direct 2> "$scratch/dd.err"
  rc=$?
  records=$(sed -n 's/^\([0-9]*\)+0 records in$/\1/p' "$scratch/dd.err")
  echo "# failing: dd copied $records blocks of 4 KiB, fail-after=$SIMCARD_FAIL_AFTER"
  check "failing: reading past fail-after fails" test $rc -ne 0
  check "failing: the error is EIO" grep -q "Input/output error" "$scratch/dd.err"
  # udev's probe of the new device uses a few commands of the budget.
  check "failing: it failed near fail-after commands" \
    awk -v r="$records" -v n="$SIMCARD_FAIL_AFTER" 'BEGIN { exit !(r <= n && r >= 0.9 * n) }'
  card_down failing
  dir=$SIMCARD_DIR
  "$down" "$dir"
  check "simcard-down is idempotent" test $? -eq 0
fi

done_testing
