#!/bin/bash
# cli-bad-input.sh — wrong flags and impossible targets get a clear
# message and the documented exit status, and lose nothing.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

work=$(mktemp -d)
# A folder a run could measure, for the options checked before a run.
target=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-bad-XXXXXX)
mnt=
simcard=$(cd "$(dirname "$0")/simcard" && pwd)
SIMCARD_DIR=
cleanup () {
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
  [ -n "$SIMCARD_DIR" ] && "$simcard/simcard-down" "$SIMCARD_DIR"
  rm -rf "$work" "$target"
}
trap cleanup EXIT

# expect STATUS PATTERN ARGS…: runs the CLI, checks the exit status and
# that stderr matches the pattern.
expect () {
  local status=$1 pattern=$2
  shift 2
  "$CARDMARK_CLI" "$@" > "$work/out" 2> "$work/err"
  local got=$?
  if [ $got -eq "$status" ] && grep -qiE "$pattern" "$work/err"; then
    ok "cardmark-cli $* → $status"
  else
    not_ok "cardmark-cli $* → $status (got $got: $(head -c 300 "$work/err"))"
  fi
}

expect 2 "usage" 
expect 2 "unknown command" frobnicate
expect 2 "unknown option" bench --frobnicate /tmp
expect 2 "quick or full" bench --profile turbo /tmp
expect 2 "bench needs a TARGET" bench
expect 2 "output and --plot are for one card" bench --plot "$work/p.svg" "$work" "$target"
expect 1 "nothing at /nonexistent/card" bench /nonexistent/card
touch "$work/file.txt"
expect 1 "is an ordinary file\. Give a folder" bench "$work/file.txt"
expect 1 "is a folder\. A raw test needs the card's block device" bench --raw "$work"
# Neither /dev/null nor a FIFO is called a folder: the message names it.
mkfifo "$work/fifo"
expect 1 "/dev/null is a character device" bench --raw /dev/null
expect 1 "/dev/null is a character device.*Give a folder" bench /dev/null
expect 1 "fifo is a named pipe \(FIFO\)\. A raw test needs" bench --raw "$work/fifo"
expect 1 "fifo is a named pipe" bench "$work/fifo"

"$CARDMARK_CLI" --help > "$work/out"
check "--help lists bench" grep -q "bench" "$work/out"

# Each command's --help names the command in its usage line.
for command in list info bench decode plot probe-capacity history; do
  "$CARDMARK_CLI" $command --help > "$work/out"
  check "$command --help says “cardmark-cli $command [OPTION…]”" grep -qF "cardmark-cli $command [OPTION…]" "$work/out"
done

# --only names tests of the profile; an empty list is no list.
expect 2 "at least one test name.*seq-read, rand-write-4k" bench --only "" "$target"
expect 2 "at least one test name" bench --only " , " "$target"
expect 2 "no test called “seq-reed”.*seq-write, seq-read" bench --only seq-read,seq-reed "$target"
expect 2 "sustained-limit needs a size, such as 256M, 1.5GiB or 500MB, not “lots”" bench --profile full --sustained-limit lots "$target"
expect 2 "sustained-limit must be at least 64" bench --profile full --sustained-limit 0 "$target"

# An option made from its kind's own (cm-cli-kind-options.c): the wear
# test's rounds, with its help line and the bounds its GParamSpec holds;
# 0 (no limit, as leaving it out) and what is no plain number are refused.
for rounds in 0 99999999999 " 2" 0x10 1e3 -1; do
  expect 2 "^cardmark-cli: --rounds takes a whole number, from 1 to [0-9]+\\." endure --destroy-data --rounds "$rounds" /dev/null
done
"$CARDMARK_CLI" endure --help > "$work/out"
check "endure --help says what --rounds=N does" grep -q -- "--rounds=N  *Stop after N rounds" "$work/out"

# What is written after a run is checked before it: a wrong chart name is
# a usage error, a folder that cannot take the file stops the run at once.
# expect_at_once STATUS PATTERN ARGS…: as expect, and no test started.
expect_at_once () {
  expect "$@"
  if grep -q "Running" "$work/err"; then
    not_ok "… before any test ran ($(head -c 300 "$work/err"))"
  else
    ok "… before any test ran"
  fi
}
expect_at_once 2 "chart format.*\.png, \.svg or \.pdf" bench --only seq-read --plot "$work/chart.gif" "$target"
expect_at_once 2 "folder “/nonexistent/folder” does not exist" bench --only seq-read --output /nonexistent/folder/r.json "$target"
expect_at_once 2 "folder “/nonexistent” does not exist" bench --only seq-read --plot /nonexistent/chart.svg "$target"
expect_at_once 2 "“$work”: it is a folder" bench --only seq-read --output "$work" "$target"
touch "$work/not-a-folder"
XDG_DATA_HOME="$work/not-a-folder" expect_at_once 2 "history folder “$work/not-a-folder/cardmark[^/]*/history”" \
  bench --only seq-read --save "$target"

# One size syntax for every option (cm_size_parse): what one takes, the
# other takes, and the --help of both says what it is.
expect_sizes () {
  local size
  for size in "5 G" 5G 5GB 512M "1.5GiB" " 64 MiB "; do
    expect 2 "no test called" bench --profile full --sustained-limit "$size" --only nothing "$target"
    expect 2 "takes no other option" probe-capacity --restore --cache-up-to "$size" /dev/null
  done
  for size in 1e9 0x10 -5G "5 parsecs" inf; do
    expect 2 "sustained-limit needs a size.*not “$size”" bench --profile full --sustained-limit "$size" "$target"
    expect 2 "cache-up-to needs a size.*not “$size”" probe-capacity --cache-up-to "$size" /dev/null
  done
}
expect_sizes
for command in bench probe-capacity; do
  "$CARDMARK_CLI" $command --help > "$work/out"
  # Read as one paragraph: --help wraps it at 80 columns.
  tr -s '\n ' '  ' < "$work/out" > "$work/joined"
  check "$command --help says how a SIZE is written" grep -q "A SIZE is a number.*powers of 1024.*powers of 1000" "$work/joined"
done
# A sustained write of a byte ran nothing, said "not enough free space"
# and exited 0: now the limit has a floor, checked before the card.
expect_at_once 2 "sustained-limit must be at least 64\.0.{1,2}MiB" bench --profile full --sustained-limit 1 "$target"
expect_at_once 2 "sustained-limit must be at least 64\.0.{1,2}MiB" bench --profile full --sustained-limit 63M "$target"

# An empty TARGET ("" from an unset variable) is no path: every command
# that takes one says so, and the working folder is never tested.
empty_cwd=$work/cwd
mkdir "$empty_cwd"
cd "$empty_cwd" || exit 1
for args in "bench" "bench --raw" "bench --allow-write" "info" "probe-capacity" "probe-capacity --restore" "plot -o $work/p.svg"; do
  expect_at_once 2 "An empty name \(“”\) was given.*never takes it for the working folder" $args ""
done
expect 2 "An empty name" plot -o "$work/p.svg" "$G_TEST_SRCDIR/data/result-small.json" ""
cd - > /dev/null || exit 1
check "nothing was written to the working folder" test -z "$(ls -A "$empty_cwd")"

# --brand that is not text names the option.
expect 2 "^cardmark-cli: --brand is not text" bench --brand $'Sandisk\xff' "$target"
expect 2 "^cardmark-cli: --brand is not text" decode --cid 0 --brand $'\xfe'

# JSON from outside is bounded in depth and size before it is parsed.
python3 -c 'import sys; sys.stdout.write("[" * 100000)' > "$work/deep.json"
expect 1 "“$work/deep.json”: Its arrays and objects nest more than 64 levels deep" plot -o "$work/p.svg" "$work/deep.json"
check "a deep file draws no chart" test ! -e "$work/p.svg"
# /dev/zero grew to gigabytes before failing; a big regular file is read
# only up to the limit: the messages say neither was read (the time is
# printed, not bounded, as a busy machine stretches it; a hang is meson's
# time-out).
expect_fast () {
  local start=$SECONDS
  expect "$@"
  echo "# … in $((SECONDS - start)) s"
}
expect_fast 1 "/dev/zero”: It is not a regular file" plot -o "$work/p.svg" /dev/zero
truncate -s 100G "$work/huge.json"
expect_fast 1 "huge.json”: It is larger than 8.4.{1,2}MB" plot -o "$work/p.svg" "$work/huge.json"
# The same deep file in the history folder is skipped with a note, and the
# results beside it are still listed.
history_home=$work/history-home
for name in cardmark cardmark-devel; do
  mkdir -p "$history_home/$name/history"
  cp "$work/deep.json" "$history_home/$name/history/20260101-000000-deep.json"
  cp "$G_TEST_SRCDIR/data/result-small.json" "$history_home/$name/history/20260101-000001-good.json"
done
XDG_DATA_HOME=$history_home "$CARDMARK_CLI" history --json > "$work/out" 2> "$work/err"
check "history with a deep file exits 0" test $? -eq 0
check "… skips it with a note" grep -q "Skipped .*deep.json: Its arrays and objects nest more than 64 levels deep" "$work/err"
check "… and lists the good result" json_check "$work/out" 'len(r) == 1'

if [ "$(id -u)" = 0 ]; then
  mnt="$work/small"
  mkdir "$mnt"
  mount -t tmpfs -o size=64m tmpfs "$mnt"
  echo keep > "$mnt/keep.txt"
  expect 1 "not enough free space" bench "$mnt"
  check "a full card keeps its files and gets no scratch file" test "$(ls -A "$mnt")" = "keep.txt"
  mount -o remount,ro "$mnt"
  expect 1 "write-protected|read-only" bench "$mnt"
  check "a read-only card keeps its files" test "$(cat "$mnt/keep.txt")" = "keep"
  umount "$mnt"
  mnt=
else
  skip "mounting a small or read-only filesystem needs root"
  skip "mounting a small or read-only filesystem needs root"
  skip "mounting a small or read-only filesystem needs root"
  skip "mounting a small or read-only filesystem needs root"
fi

# --cache-up-to that is not a whole 4 KiB signed the card and then failed
# with "Invalid argument": it is rounded up before anything is written,
# and the check ends as any other, the card as it was.
if "$simcard/simcard-up" good-a1 --size 256MiB -- --set read.bandwidth-mb-s=2000 --set write.bandwidth-mb-s=2000 \
     --set read.latency-us=20 --set write.latency-us=20 --set write.random-penalty-us=0 > "$work/simcard.env" 2> "$work/simcard.err"; then
  . "$work/simcard.env"
  head -c $((64 * 1024 * 1024)) /dev/urandom | dd of="$SIMCARD_DEV" bs=4M oflag=direct status=none
  sync
  card_before=$(sha256sum < "$SIMCARD_DEV")
  for size in 10000001 "10 MB" 1.5M; do
    XDG_DATA_HOME=$work/xdg "$CARDMARK_CLI" probe-capacity --cache-up-to "$size" --json "$SIMCARD_DEV" > "$work/probe.json" 2> "$work/err"
    check "probe-capacity --cache-up-to $size (not a whole 4 KiB) finishes (exit 0)" test $? -eq 0
    check "… ruling out at least $size" json_check "$work/probe.json" "r['cache_ruled_out_bytes'] >= 1500000 and not r['fake']"
    check "… leaving no journal" test -z "$(find "$work/xdg" -name '*.journal' 2> /dev/null)"
    echo 3 > /proc/sys/vm/drop_caches
    check "… and the whole card as it was (sha256)" test "$(sha256sum < "$SIMCARD_DEV")" = "$card_before"
  done
  # Sizes that are not sizes are refused before the card is opened.
  expect 2 "cache-up-to needs a size" probe-capacity --cache-up-to 4KiBB "$SIMCARD_DEV"
  expect 2 "An empty name" bench --allow-write ""
  check "a refused size or target leaves the card as it was (sha256)" test "$(sha256sum < "$SIMCARD_DEV")" = "$card_before"
else
  skip "no simulated card here: $(head -c 200 "$work/simcard.err")"
fi

# Every command's --help wraps on words at 80 columns (GLib's does not).
for command in list info bench decode plot probe-capacity verify endure history; do
  "$CARDMARK_CLI" "$command" --help > "$work/help" 2>&1
  widest=$(python3 -c "
import sys, unicodedata
print(max(sum(2 if unicodedata.east_asian_width(c) in 'WF' else 1 for c in line.rstrip('\\n'))
          for line in open(sys.argv[1], encoding='utf-8')))" "$work/help")
  check "$command --help fits 80 columns (widest line: $widest)" test "$widest" -le 80
done

done_testing
