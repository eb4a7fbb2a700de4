#!/bin/bash
# cli-bad-input.sh — wrong flags and impossible targets get a clear
# message and the documented exit status, and lose nothing.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

work=$(mktemp -d)
# A folder a run could measure, for the options checked before a run.
target=$(mktemp -d /var/tmp/cardmark-bad-XXXXXX)
mnt=
cleanup () {
  [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
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
expect 2 "exactly one TARGET" bench
expect 2 "exactly one TARGET" bench /tmp /var/tmp
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
expect 2 "sustained-limit needs a size, such as 16GiB" bench --profile full --sustained-limit lots "$target"
expect 2 "sustained-limit needs a size" bench --profile full --sustained-limit 0 "$target"

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
expect_at_once 1 "folder “/nonexistent/folder” does not exist" bench --only seq-read --output /nonexistent/folder/r.json "$target"
expect_at_once 1 "folder “/nonexistent” does not exist" bench --only seq-read --plot /nonexistent/chart.svg "$target"
expect_at_once 1 "“$work”: it is a folder" bench --only seq-read --output "$work" "$target"
touch "$work/not-a-folder"
XDG_DATA_HOME="$work/not-a-folder" expect_at_once 1 "history folder “$work/not-a-folder/cardmark[^/]*/history”" \
  bench --only seq-read --save "$target"

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

done_testing
