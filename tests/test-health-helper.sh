#!/bin/bash
# test-health-helper.sh — the health helper (src/helper/cardmark-read-health),
# which pkexec runs as root, takes one argument, the whole device of a card
# in a built-in slot, and refuses anything else before it asks a card:
# another device's name, a partition, a boot area, a path with "..", a
# link named like a card, a file, a pipe, a block device that is not on an
# MMC bus. Refused means status 2, nothing on stdout, the reason on stderr.
#
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Usage: test-health-helper.sh   (CARDMARK_HEALTH_HELPER: the built helper)

set -u
CARDMARK_CLI=${CARDMARK_CLI:-unused}   # tap.sh wants it; this test runs none
. "$(dirname "$0")/lib/tap.sh"

helper=${CARDMARK_HEALTH_HELPER:-}
[ -x "$helper" ] || skip_all "CARDMARK_HEALTH_HELPER is not the built helper"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/cardmark-helper-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# refused WHY ARG…: the helper refuses ARG… (status 2), prints nothing on
# stdout, and says WHY on stderr.
refused () {
  local why=$1 status args
  shift
  "$helper" "$@" >"$tmp/out" 2>"$tmp/err"
  status=$?
  # An argument may hold a newline: named quoted, on one TAP line.
  args=$(printf '%q ' "$@")
  if [ "$status" = 2 ] && [ ! -s "$tmp/out" ] && grep -qF -- "$why" "$tmp/err"; then
    ok "refuses ${args:-no argument}: $(head -n1 "$tmp/err" | tr -d '\r')"
  else
    not_ok "refuses ${args:-no argument} (status $status, want 2 and \"$why\")"
    sed 's/^/# stdout: /' "$tmp/out"
    sed 's/^/# stderr: /' "$tmp/err"
  fi
}

refused "Usage:"
refused "Usage:" /dev/mmcblk0 /dev/mmcblk1
refused "is not a card in a built-in slot" /dev/sda
refused "is not a card in a built-in slot" /dev/loop0
refused "is not a card in a built-in slot" /dev/mmcblk0p1
refused "is not a card in a built-in slot" /dev/mmcblk0boot0
refused "is not a card in a built-in slot" /dev/mmcblk0rpmb
refused "is not a card in a built-in slot" /dev/../dev/mmcblk0
refused "is not a card in a built-in slot" /dev//mmcblk0
refused "is not a card in a built-in slot" mmcblk0
refused "is not a card in a built-in slot" "/dev/mmcblk"
refused "is not a card in a built-in slot" "/dev/mmcblk0 "
refused "is not a card in a built-in slot" $'/dev/mmcblk0\nx'

# What is named like a card but is not one: in a folder of the test's own,
# which a build with test hooks takes for /dev.
[ "${CARDMARK_TEST_HOOKS:-1}" = 1 ] || { skip "built without -Dtest_hooks=true: no folder stands for /dev"; done_testing; }
export CARDMARK_TEST_HELPER_DEV_DIR=$tmp/dev
mkdir "$tmp/dev"
ln -s /dev/null "$tmp/dev/mmcblk0"
: > "$tmp/dev/mmcblk1"
mkfifo "$tmp/dev/mmcblk2"
mkdir "$tmp/dev/mmcblk3"
ln -s "$tmp/dev/mmcblk1" "$tmp/dev/mmcblk4"
refused "is a link" "$tmp/dev/mmcblk0"
refused "is a link" "$tmp/dev/mmcblk4"
refused "is not a block device" "$tmp/dev/mmcblk1"
refused "is not a block device" "$tmp/dev/mmcblk2"
refused "is not a block device" "$tmp/dev/mmcblk3"
refused "is not there" "$tmp/dev/mmcblk5"
refused "is not a card in a built-in slot" "$tmp/dev/mmcblk1p1"
# The folder itself reached through a link.
ln -s "$tmp/dev" "$tmp/devlink"
CARDMARK_TEST_HELPER_DEV_DIR=$tmp/devlink refused "is not in a folder of devices" "$tmp/devlink/mmcblk1"

# A block device named like a card that is not on an MMC bus (a loop
# device's numbers): only root can make its node, and only where the
# folder's file system lets device nodes be opened.
loop=$(ls /sys/class/block 2>/dev/null | grep -m1 '^loop[0-9]*$')
if [ "$(id -u)" = 0 ] && [ -n "$loop" ] &&
   mknod "$tmp/dev/mmcblk6" b $(tr ':' ' ' < "/sys/class/block/$loop/dev") 2>/dev/null &&
   head -c0 "$tmp/dev/mmcblk6" 2>/dev/null; then
  refused "its device is not on an MMC bus" "$tmp/dev/mmcblk6"
else
  skip "cannot make a block device node here (not root, or TMPDIR is nodev)"
fi

done_testing
