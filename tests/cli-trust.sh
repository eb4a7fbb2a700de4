#!/bin/bash
# cli-trust.sh — nothing another user plants reaches root's terminal,
# files or locks (issue 34): an unprivileged user this test creates
# (useradd) plants text with escape sequences and line breaks in a card's
# lock and in its bus's gate, links, a folder and a file of its own at
# the lock's place, and links where root's --csv and --output write;
# numbers that would mean "no limit" are refused. Every case compares the
# sha256 of the card, and of the file a link points to, before and after.
# A lock or gate the user holds is said as that user's, by name and
# process, never with its words, and never waited on for ever (issue 47):
# every run that could wait is bounded by `timeout`, whose status 124
# fails the case. A job that is not root's (nobody, on a folder of a
# tmpfs of its own) does not trust the user's lock, and leaves none.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

here=$(cd "$(dirname "$0")" && pwd)
[ "$(id -u)" = 0 ] || skip_all "simulated cards and a second user need root"
command -v useradd > /dev/null && command -v setpriv > /dev/null || skip_all "useradd and setpriv are needed"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-trust-XXXXXX)
chmod 0755 "$work"
export XDG_DATA_HOME=$work/xdg
# The simulated card has a bus of its own, named, so its gate's file is known.
export CARDMARK_TEST_BUS_GROUP=trust-$$
user=cmtrust$$
cards=()
holders=()
lock=
flock_file=
cleanup () {
  for p in "${holders[@]}"; do kill "$p" 2> /dev/null; done
  for d in "${cards[@]}"; do "$here/simcard/simcard-down" "$d"; done
  [ -n "$lock" ] && rm -rf "$lock" "$lock".planted-* "$lock.held" "$gate" "$gate.held"
  [ -n "$flock_file" ] && rm -f "$flock_file" "$flock_file.held"
  mountpoint -q "$work/fs" 2> /dev/null && umount "$work/fs"
  userdel "$user" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT

useradd -M -d /nonexistent -s /bin/sh "$user" || skip_all "useradd refused"
# setpriv runs the command itself (no session parent), so its id is the
# process to stop.
as_user () { setpriv --reuid="$user" --regid="$user" --clear-groups -- "$@"; }

"$here/simcard/simcard-up" good-a1 --size 64MiB -- --set write.bandwidth-mb-s=400 --set read.bandwidth-mb-s=800 \
  > "$work/card.env" || skip_all "no simulated card here (see tests/simcard)"
. "$work/card.env"
cards+=("$SIMCARD_DIR")
udevadm settle 2> /dev/null

card_sum () { sha256sum "$SIMCARD_DEV" | cut -d' ' -f1; }
sum () { sha256sum "$1" | cut -d' ' -f1; }
# The lock's and the gate's files, as cm-card-lock.c and cm-bus.c name them.
lock=/run/lock/cardmark-block-$((0x$(stat -c %t "$SIMCARD_DEV")))-$((0x$(stat -c %T "$SIMCARD_DEV"))).lock
gate=/run/lock/cardmark-bus-$(printf 'test:%s' "$CARDMARK_TEST_BUS_GROUP" | sha256sum | cut -c1-16).gate
rm -rf "$lock" "$gate"

# A victim: a root file the user would like root to write.
victim=$work/victim
echo "root's own" > "$victim"
victim_sum=$(sum "$victim")
# The user's own folder, where it plants what it likes.
mine=$work/mine
mkdir "$mine"
chown "$user" "$mine"

# clean FILE: no escape (nor any other control character but the line
# breaks the program writes itself) and no planted line.
clean () {
  ! grep -q $'\033' "$1" && ! grep -q $'\007' "$1" && ! grep -q "^HACKED" "$1" && return 0
  sed -n l "$1" | sed 's/^/# /'
  return 1
}
planted=$'/dev/sdz\033]0;PWNED\007\033[2J\033[1;31mHACKED\nHACKED: a whole fake line'

# hold FILE: the user plants FILE with the text above and holds its lock
# until killed; waits until it holds it.
hold () {
  # Not through as_user: a function in the background is a subshell,
  # and $! must be the holder itself.
  setpriv --reuid="$user" --regid="$user" --clear-groups -- /usr/bin/python3 -c '
import fcntl, sys, time
f = open(sys.argv[1], "w")
f.write(sys.argv[2] + "\n")
f.flush()
fcntl.flock(f, fcntl.LOCK_EX)
open(sys.argv[1] + ".held", "w").close()
time.sleep(600)' "$1" "$planted" &
  holders+=($!)
  for _ in $(seq 500); do [ -e "$1.held" ] && return 0; sleep 0.02; done
  return 1
}
release () {
  kill "${holders[-1]}" 2> /dev/null
  wait "${holders[-1]}" 2> /dev/null
  rm -f "$1.held"
}

# 1. A lock the user planted and holds: root is told another user's
#    program holds the card, whose, in one clean line without the
#    planted words, and the card is not touched.
before=$(card_sum)
check "the user plants and holds the card's lock" hold "$lock"
timeout 60 "$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 1 > "$work/out" 2> "$work/err"
check "root's wear test is refused as busy (status 1)" test $? -eq 1
check "… saying another user's program holds it: whose, and its process" \
  file_says "Another user's program holds the card in $SIMCARD_DEV: $user (process ${holders[-1]})" "$work/err"
check "… without the words the user wrote in the lock" sh -c "! grep -q /dev/sdz '$work/err'"
check "… with no escape sequence and no planted line" clean "$work/err"
check "… and the card is unchanged (sha256)" test "$(card_sum)" = "$before"
release "$lock"

# 2. A lock the user planted and let go: root clears it and makes its
#    own, which the user cannot delete while root's job runs.
check "the lock file is the user's" test "$(stat -c %U "$lock")" = "$user"
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --only seq-read > "$work/out" 2> "$work/err"
check "root's benchmark runs past the planted lock (status 0)" test $? -eq 0
check "… and the lock file is root's now" test "$(stat -c %U "$lock")" = root
as_user rm -f "$lock" 2> /dev/null
check "… which the user cannot delete" test -e "$lock"

# 3. A link, then a folder, at the lock's place: root's job runs, and
#    the file the link points to is left as it was.
rm -f "$lock"
as_user ln -s "$victim" "$lock"
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --only seq-read > "$work/out" 2> "$work/err"
check "a link at the lock's place does not block root (status 0)" test $? -eq 0
check "… nor is followed (the file it points to is unchanged)" test "$(sum "$victim")" = "$victim_sum"
rm -f "$lock"
as_user mkdir "$lock"
as_user touch "$lock/keep"
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --only seq-read > "$work/out" 2> "$work/err"
check "a folder at the lock's place does not block root (status 0)" test $? -eq 0
check "… and is moved aside, not emptied" test -e "$(ls -d "$lock".planted-* | head -1)/keep"

# 4. The bus's gate held by the user, with planted text: root's
#    benchmark is refused at once, naming the user; its wear test says at
#    once, in one clean line, whose program it waits for, and goes on
#    once the gate is free.
before=$(card_sum)
rm -f "$gate"
check "the user plants and holds the bus's gate" hold "$gate"
# A benchmark does not wait at all: it says whose the gate is and ends.
timeout 60 "$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --only seq-read > "$work/bench-out" 2> "$work/bench-err"
check "root's benchmark is refused at once while the user holds the gate (status 1)" test $? -eq 1
check "… saying another user's program holds the bus, whose, and its process" \
  file_says "Another user's program holds the bus the card in $SIMCARD_DEV is on: $user (process ${holders[-1]})" "$work/bench-err"
check "… without the words the user wrote in the gate" sh -c "! grep -q /dev/sdz '$work/bench-err'"
check "… in one clean line" clean "$work/bench-err"
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 1 > "$work/out" 2> "$work/err" &
pid=$!
for _ in $(seq 1500); do grep -q "Paused while the card in" "$work/err" && break; sleep 0.02; done
check "root's wear test says it waits for another user's program, whose, and its process" \
  file_says "Paused while the card in another user's program, $user (process ${holders[-1]})," "$work/err"
check "… not for the card the user wrote in the gate" sh -c "! grep -q /dev/sdz '$work/err'"
release "$gate"
wait $pid
check "the wear test carries on once the gate is free (status 0)" test $? -eq 0
check "… and no escape sequence nor planted line reached its terminal" clean "$work/err"

# 5. Files options name: a link the user planted in its folder, an empty
#    name, a device: refused before the card is touched (status 2).
before=$(card_sum)
as_user ln -s "$victim" "$mine/rounds.csv"
"$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 1 --csv "$mine/rounds.csv" > "$work/out" 2> "$work/err"
check "--csv through a planted link is refused (status 2)" test $? -eq 2
check "… saying links are not followed" file_says "symbolic link" "$work/err"
for csv in "" /dev/full "$mine"; do
  "$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 1 --csv "$csv" > "$work/out" 2> "$work/err"
  check "--csv “$csv” is refused before the card is touched (status 2)" test $? -eq 2
done
as_user ln -s "$victim" "$mine/out.json"
"$CARDMARK_CLI" bench "$SIMCARD_DEV" --raw --only seq-read --output "$mine/out.json" > "$work/out" 2> "$work/err"
check "--output through a planted link is refused (status 2)" test $? -eq 2
check "the victim file is unchanged (sha256)" test "$(sum "$victim")" = "$victim_sum"
check "the card is unchanged (sha256)" test "$(card_sum)" = "$before"

# 6. A folder that cannot keep the wear test's state: refused before the
#    first write, once, in words (not a warning every round).
mkdir -p "$work/nostate"
touch "$work/nostate/cardmark"
XDG_DATA_HOME=$work/nostate "$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data --rounds 1 > "$work/out" 2> "$work/err"
check "a wear test that cannot keep its state is refused (status 1)" test $? -eq 1
check "… saying so" file_says "cannot keep where the wear test stands" "$work/err"
check "… with no raw warning" sh -c "! grep -q WARNING '$work/err'"
check "… and the card is unchanged (sha256)" test "$(card_sum)" = "$before"

# 7. Numbers that would mean "no limit", or are not plain numbers.
for args in "--rounds 0" "--rounds  2" "--rounds 0x10" "--hours 0" "--hours -0" "--hours inf" "--tbw 0" "--rounds 1e3"; do
  read -r -a a <<< "$args"
  [ "$args" = "--rounds  2" ] && a=(--rounds " 2")
  "$CARDMARK_CLI" endure "$SIMCARD_DEV" --destroy-data "${a[@]}" > "$work/out" 2> "$work/err"
  check "endure ${a[*]} is a usage error (status 2)" test $? -eq 2
  check "… whose sentence names the option" file_says "${a[0]}" "$work/err"
done
check "the card is unchanged (sha256)" test "$(card_sum)" = "$before"

# 8. A job that is not root's (nobody), on a folder of a tmpfs of its
#    own: it does not trust a card lock the user made (the user could
#    delete it while nobody's job runs), says whose a held one is, and
#    leaves no lock of its own behind for the user to distrust in turn.
mkdir -p "$work/fs" "$work/nobody"
mount -t tmpfs -o mode=1777,size=64m cardmark-trust "$work/fs"
chown nobody "$work/nobody"
flock_file=/run/lock/cardmark-fs-$(stat -c '%Hd-%Ld' "$work/fs").lock
rm -f "$flock_file"
as_nobody () {
  (cd / && HOME=$work/nobody XDG_DATA_HOME=$work/nobody XDG_STATE_HOME=$work/nobody CARDMARK_TEST_PLAN=tiny \
     timeout 60 setpriv --reuid=65534 --regid=65534 --clear-groups -- "$CARDMARK_CLI" "$@")
}
as_user sh -c "echo '$planted' > '$flock_file'"
as_nobody bench "$work/fs" > "$work/out" 2> "$work/err"
check "nobody's benchmark is refused by the user's lock no one holds (status 1)" test $? -eq 1
check "… saying another user made it, and who" file_says "was made by another user, $user," "$work/err"
check "… in one clean line" clean "$work/err"
rm -f "$flock_file"
check "the user holds a lock of its own at the folder's card" hold "$flock_file"
as_nobody bench "$work/fs" > "$work/out" 2> "$work/err"
check "nobody's benchmark is refused while the user holds it (status 1)" test $? -eq 1
check "… saying another user's program holds it, whose, and its process" \
  file_says "Another user's program holds the card in $work/fs: $user (process ${holders[-1]})" "$work/err"
check "… in one clean line" clean "$work/err"
release "$flock_file"
rm -f "$flock_file"
as_nobody bench "$work/fs" > "$work/out" 2> "$work/err"
check "nobody's own benchmark runs (status 0)" test $? -eq 0
check "… and leaves no lock the user would have to trust" test ! -e "$flock_file"
(cd / && CARDMARK_TEST_PLAN=tiny timeout 60 setpriv --reuid="$user" --regid="$user" --clear-groups -- \
   env HOME="$work/mine" XDG_DATA_HOME="$work/mine" "$CARDMARK_CLI" bench "$work/fs") > "$work/out" 2> "$work/err"
check "… so the user's benchmark runs after it (status 0)" test $? -eq 0

done_testing
