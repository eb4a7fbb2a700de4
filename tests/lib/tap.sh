# tap.sh — a few helpers for the shell tests, which speak TAP to meson.
#
# SPDX-License-Identifier: GPL-3.0-or-later

tap_n=0
tap_failed=0

ok () {
  tap_n=$((tap_n + 1))
  echo "ok $tap_n - $*"
}

not_ok () {
  tap_n=$((tap_n + 1))
  tap_failed=1
  echo "not ok $tap_n - $*"
}

# check DESCRIPTION COMMAND…: one TAP line from a command's success.
check () {
  local what=$1
  shift
  if "$@"; then ok "$what"; else not_ok "$what"; fi
}

# file_says PATTERN FILE: whether FILE holds PATTERN (grep); when not,
# what it holds instead, as TAP comments.
file_says () {
  grep -q -- "$1" "$2" && return 0
  sed 's/^/# /' "$2"
  return 1
}

skip_all () {
  echo "1..0 # SKIP $*"
  exit 0
}

skip () {
  tap_n=$((tap_n + 1))
  echo "ok $tap_n # SKIP $*"
}

# need_test_hooks HOOK: for tests that steer a run through a CARDMARK_*
# hook, which only a build with -Dtest_hooks=true reads (meson says which
# in CARDMARK_TEST_HOOKS; docs/architecture.md lists the hooks).
need_test_hooks () {
  [ "${CARDMARK_TEST_HOOKS:-1}" = 1 ] || skip_all "built without -Dtest_hooks=true, so $1 is not read"
}

done_testing () {
  echo "1..$tap_n"
  exit $tap_failed
}

# json_check FILE PYTHON-EXPRESSION: evaluates the expression with `r`
# bound to the parsed document; succeeds when it is true.
json_check () {
  python3 - "$1" "$2" <<'PY'
import json, sys
with open(sys.argv[1]) as f:
    r = json.load(f)
ok = eval(sys.argv[2])
if not ok:
    print("# failed: " + sys.argv[2], file=sys.stderr)
sys.exit(0 if ok else 1)
PY
}

: "${CARDMARK_CLI:?run through meson test}"

# need_simcard_path: for tests that bring up a simulated card. meson sets
# CARDMARK_SIMCARD (empty when cm-simcard was not built), so a build folder
# of any name finds it; unset means tests/meson.build forgot it.
need_simcard_path () {
  : "${CARDMARK_SIMCARD?tests/meson.build must say where cm-simcard is}"
}
