#!/bin/bash
# cli-store.sh — one PostgreSQL store for several test machines, with a
# real PostgreSQL (Debian's postgresql, started here as the postgres user
# in a temporary folder on a free port). Two homes are two machines
# (CARDMARK_MACHINE_NAME); each runs a quick job with --store. The
# database is stopped mid-run, so a document waits in the history; once
# it is back, the next command sends it. At the end the store holds
# exactly three documents; --json and --csv read them, each naming the
# machine it came from; a wear test
# carried on replaces its stop's row; and the role's password (from
# PGPASSWORD, over TCP) is in no output and no file of either home.
# Issue 47: a password in --store, in any spelling, is refused (exit 2)
# and never printed, a URL libpq cannot read is not echoed; a trigger's
# RAISE NOTICE with escape sequences reaches no terminal; results queued
# for a store that is down go to that store only. Issue 48: with the
# database gone mid-send, history --store says how many still wait.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -x "$pg_bin/initdb" ] && [ -x "$pg_bin/pg_ctl" ] && command -v psql > /dev/null ||
  skip_all "PostgreSQL is not installed (build-aux/install-deps --tests installs it)"
[ "$(id -u)" = 0 ] || skip_all "loop devices and the postgres user need root"
id postgres > /dev/null 2>&1 || skip_all "no postgres user to run the database as"
need_test_hooks CARDMARK_TEST_CID
"$CARDMARK_CLI" history --store postgresql://x@127.0.0.1/x 2>&1 | grep -q "without PostgreSQL support" &&
  skip_all "cardmark-cli was built without libpq"

work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-store-XXXXXX)
# The postgres user must reach its own folder inside.
chmod 711 "$work"
pg=$work/pg
install -d -o postgres -m 700 "$pg"
out=$work/out
mkdir "$out"
loop=
pg_ctl () {
  runuser -u postgres -- "$pg_bin/pg_ctl" -D "$pg/data" -l "$pg/log" "$@" > /dev/null
}
cleanup () {
  [ -f "$pg/data/postmaster.pid" ] && pg_ctl stop -m immediate
  [ -n "$loop" ] && losetup -d "$loop" 2> /dev/null
  rm -rf "$work"
}
trap cleanup EXIT

port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password=pw$(python3 -c 'import secrets; print(secrets.token_hex(12))')
runuser -u postgres -- "$pg_bin/initdb" -D "$pg/data" -U postgres -A trust --no-sync > "$pg/initdb.log" 2>&1
check "initdb in a temporary folder" test $? -eq 0
# The admin over the socket in $pg; the lab's role only over TCP with
# its password, as a lab's machines reach the database.
cat > "$pg/data/pg_hba.conf" <<EOF
local all all trust
host all all 127.0.0.1/32 scram-sha-256
EOF
pg_start () {
  pg_ctl -w -o "-p $port -k $pg -c listen_addresses=127.0.0.1 -c fsync=off" start
}
admin () {
  runuser -u postgres -- psql -X -q -A -t -h "$pg" -p "$port" "$@"
}
pg_start
check "postgres starts on port $port" test $? -eq 0
admin -d postgres -c "CREATE ROLE lab LOGIN PASSWORD '$password'" &&
  admin -d postgres -c "CREATE DATABASE cards OWNER lab"
check "a role with a password and its database" test $? -eq 0

# The password as a lab gives it, never in a command line (ps).
export PGPASSWORD=$password
url="postgresql://lab@127.0.0.1:$port/cards?connect_timeout=3"
safe_url=$url

# Kingston Canvas Go Plus 64 GB (tests/data/reference/sd-register-vectors.tsv),
# and a Panasonic 8 GB card's CSD for a clone of it.
cid=9f54495344363447614b1004af017400
csd_64g=400e00325b590001cf9f7f800a400000
csd_8g=400e00325b59000039b37f800a4000f8

# size CSD: the card's size as CardMark prints it ("62.2 GB", GLib's
# space between is a no-break one: any one character matches it).
size () {
  "$CARDMARK_CLI" decode --cid "$cid" --csd "$1" --json |
    python3 -c 'import json, sys; print("%.1f.GB" % (json.load(sys.stdin)["capacity_bytes"] / 1e9))'
}
size_64g=$(size $csd_64g)
size_8g=$(size $csd_8g)
check "the two CSDs give two sizes" test "$size_64g" != "$size_8g"

# Every job below reads this CID (a test hook), and this size unless told.
export CARDMARK_TEST_CID=$cid CARDMARK_TEST_CSD=$csd_64g

truncate -s 16M "$work/card.img"
loop=$(losetup -f --show "$work/card.img")
mkdir "$work/folder"

# machine NAME ARGS…: cardmark-cli as that machine, stdout and stderr in
# $out/NAME.N.out and .err, status in $status.
n=0
machine () {
  local name=$1
  shift
  n=$((n + 1))
  last=$out/$name.$n
  env HOME="$work/$name" XDG_DATA_HOME="$work/$name/data" CARDMARK_MACHINE_NAME="lab-$name" \
    "$CARDMARK_CLI" "$@" > "$last.out" 2> "$last.err"
  status=$?
}
queue_of () {
  ls "$work/$1/data/cardmark/history/.store-queue" 2> /dev/null | wc -l
}
rows () {
  admin -d cards -c "$1"
}
rows2 () {
  admin -d cards2 -c "$1"
}

machine a health "$loop" --store "$url"
check "machine a: health with --store exits 0" test "$status" -eq 0
check "its document is in the store, from lab-a" test "$(rows "SELECT machine || ' ' || kind FROM cardmark_results")" = "lab-a health"
check "nothing tested before" bash -c "! grep -q 'Tested before' '$last.out'"
check "the card's serial is a column" test "$(rows "SELECT serial FROM cardmark_results")" = "0x4b1004af"

# From here every result sent to the store meets a trigger that writes
# to the terminal, as a hostile or careless server may: a new window
# title, a cleared screen and a fake prompt, as a NOTICE.
admin -d cards <<'SQL'
CREATE FUNCTION shout() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE NOTICE '%', E'\033]0;pwned-title\007\033[2J\033[Hroot@lab:~# pwned-prompt';
  RETURN NEW;
END $$;
CREATE TRIGGER shout BEFORE INSERT ON cardmark_results FOR EACH ROW EXECUTE FUNCTION shout();
SQL
check "a trigger that raises a notice with escape sequences" test $? -eq 0

# Machine b measures the same CID, with another card's size.
CARDMARK_TEST_CSD=$csd_8g CARDMARK_TEST_PLAN=tiny machine b bench "$work/folder" --store "$url"
check "machine b: a quick benchmark with --store exits 0" test "$status" -eq 0
check "it was tested before on lab-a" file_says "Tested before on lab-a" "$last.out"
check "the same CID with another size: a cloned-card warning from the store" file_says "Warning: Cloned card? .*0x4b1004af.* was a $size_64g" "$last.out"
check "two documents in the store" test "$(rows "SELECT count(*) FROM cardmark_results")" = 2
check "the benchmark's figures are columns" test "$(rows "SELECT count(*) FROM cardmark_results WHERE kind = 'bench' AND read_mb_s > 0 AND document->>'kind' = 'bench'")" = 1
check "bench --store keeps the result in the history too" test "$(ls "$work/b/data/cardmark/history/"*.json | wc -l)" = 1

# The database goes away mid-run: the document waits in b's history.
pg_ctl -w stop -m fast
check "postgres stopped" test $? -eq 0
CARDMARK_TEST_CSD=$csd_64g machine b health "$loop" --store "$url"
check "with the store down, the job still exits 0" test "$status" -eq 0
check "and says the result waits, and why" file_says "1 result waits for the store.*cannot be reached" "$last.err"
check "the store is named without its password" file_says "$safe_url" "$last.err"
check "one document in b's queue" test "$(queue_of b)" = 1
check "tested before, from this computer's history" file_says "Tested before on this computer" "$last.out"
check "and the other size warned of from it" file_says "Warning: Cloned card? .*was a $size_8g" "$last.out"
machine a history --store "$url"
check "history --store with the store down exits 1" test "$status" -eq 1

pg_start
check "postgres started again" test $? -eq 0
check "still two documents before b's next command" test "$(rows "SELECT count(*) FROM cardmark_results")" = 2
machine b history --store "$url"
check "b's next command exits 0" test "$status" -eq 0
check "it sends the kept result first" file_says "Sent 1 kept result to the store $safe_url" "$last.err"
check "b's queue is empty" test "$(queue_of b)" = 0
check "the table lists all three, with their machines" test "$(grep -c -e '· on lab-a' -e '· on lab-b' "$last.out")" = 3
check "exactly three documents in the store" test "$(rows "SELECT count(*) FROM cardmark_results")" = 3
check "from two machines" test "$(rows "SELECT count(DISTINCT machine) FROM cardmark_results")" = 2

# A send that happened but whose queue entry was left behind (a crash
# between the two) sends the same document again: still one row.
first=$(ls "$work/b/data/cardmark/history/" | grep '\.json$' | head -n 1)
: > "$work/b/data/cardmark/history/.store-queue/$first"
machine b history --store "$url"
check "a document sent twice" file_says "Sent 1 kept result" "$last.err"
check "is still one row: three documents" test "$(rows "SELECT count(*) FROM cardmark_results")" = 3

# --json and --csv read the store too: every document whole, oldest
# first, and the batch report of them all.
machine a history --store "$url" --json
check "history --store --json exits 0" test "$status" -eq 0
check "it gives the three documents, whole, oldest first" python3 - "$last.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not (len(d) == 3 and [r["kind"] for r in d] == ["health", "bench", "health"]
              and all(r["schema"] == 1 and "tests" in r for r in d)
              and [r["started"] for r in d] == sorted(r["started"] for r in d)))
PY
check "each document names the machine that sent it" python3 - "$last.out" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(not ([r.get("machine") for r in d] == ["lab-a", "lab-b", "lab-b"]))
PY
machine a history --store "$url" --csv
check "history --store --csv exits 0" test "$status" -eq 0
check "one line for the card the two machines checked, with both kinds" python3 - "$last.out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
sys.exit(not (rows[0][0] == "card" and len(rows) == 2 and rows[1][6] == "health, bench"))
PY
check "its machines column names the machine of each check, in their order" python3 - "$last.out" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
sys.exit(not (rows[0][7] == "machines" and rows[1][7] == "lab-b, lab-b"))
PY
machine a history --store "$url" --json --csv
check "--json with --csv is a usage error" test "$status" -eq 2

# A wear test stopped and carried on (endure --resume) keeps its start:
# its second document takes the first's place, in the history
# (cm_history_save) and in the store. Here the two documents are made as
# a stop and its carrying on save them, and sent one after the other.
wear_history=$work/b/data/cardmark/history
python3 - "$G_TEST_SRCDIR/data/batch/good-wear.json" "$wear_history/20261204-093026-aaaaaa.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
d["endurance"]["stopped"] = "cancelled"
d["endurance"]["rounds"] = []
json.dump(d, open(sys.argv[2], "w"))
PY
: > "$wear_history/.store-queue/20261204-093026-aaaaaa.json"
machine b history --store "$url"
check "the stopped wear test is sent" file_says "Sent 1 kept result" "$last.err"
check "four rows" test "$(rows "SELECT count(*) FROM cardmark_results")" = 4
rm "$wear_history/20261204-093026-aaaaaa.json"
cp "$G_TEST_SRCDIR/data/batch/good-wear.json" "$wear_history/20261204-093026-bbbbbb.json"
: > "$wear_history/.store-queue/20261204-093026-bbbbbb.json"
machine b history --store "$url"
check "the wear test carried on is sent" file_says "Sent 1 kept result" "$last.err"
check "and replaces its stop's row: still four rows" test "$(rows "SELECT count(*) FROM cardmark_results")" = 4
check "the one wear row holds the carried-on document's round" \
  test "$(rows "SELECT jsonb_array_length(document->'endurance'->'rounds') FROM cardmark_results WHERE kind = 'wear'")" = 1

# Checked before the card is touched: exit 2.
machine a health "$loop" --store "mysql://lab@127.0.0.1/cards"
check "a URL that is not postgresql:// is a usage error" test "$status" -eq 2
machine a health "$loop" --store "postgresql://lab@127.0.0.1:$port/cards?bogus=1"
check "a parameter libpq does not know is a usage error" test "$status" -eq 2
CARDMARK_STORE="postgresql://lab:$password@127.0.0.1:$port/cards?bogus=1" machine a health "$loop"
check "so is a bad CARDMARK_STORE" test "$status" -eq 2
PGPASSWORD=not$password machine a history --store "postgresql://lab@127.0.0.1:$port/cards"
check "a wrong password: exit 1" test "$status" -eq 1
check "and the message says why" file_says "password authentication failed" "$last.err"
check "still four documents" test "$(rows "SELECT count(*) FROM cardmark_results")" = 4

# Two stores, one down (its database takes no connections): a result
# queued for it does not go to the other, even when the other is named.
admin -d postgres -c "CREATE DATABASE cards2 OWNER lab" &&
  admin -d postgres -c "ALTER DATABASE cards2 ALLOW_CONNECTIONS false"
check "a second store, down" test $? -eq 0
url2="postgresql://lab@127.0.0.1:$port/cards2?connect_timeout=3"
before=$(rows "SELECT count(*) FROM cardmark_results")
machine c health "$loop" --store "$url2"
check "machine c: health with its store down exits 0" test "$status" -eq 0
check "its result waits" test "$(queue_of c)" = 1
machine c history --store "$url"
check "history --store with the other store exits 0" test "$status" -eq 0
check "sends nothing to it" bash -c "! grep -q 'Sent' '$last.err'"
check "the other store has no more rows" test "$(rows "SELECT count(*) FROM cardmark_results")" = "$before"
check "the result still waits for its own store" test "$(queue_of c)" = 1
admin -d postgres -c "ALTER DATABASE cards2 ALLOW_CONNECTIONS true"
machine c history --store "$url2"
check "once its store is back, it goes there" file_says "Sent 1 kept result to the store $url2" "$last.err"
check "one row in the second store" test "$(rows2 "SELECT count(*) FROM cardmark_results")" = 1
check "c's queue is empty" test "$(queue_of c)" = 0

# The database goes away mid-send: of two results kept for it, the first
# goes, then the connection ends (the server ends its own backend at the
# second insert); history --store says one still waits.
admin -d cards2 <<'SQL'
CREATE FUNCTION hang_up() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF (SELECT count(*) FROM cardmark_results) >= 2 THEN
    PERFORM pg_terminate_backend(pg_backend_pid());
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER hang_up BEFORE INSERT ON cardmark_results FOR EACH ROW EXECUTE FUNCTION hang_up();
SQL
check "a store that hangs up at its third row" test $? -eq 0
admin -d postgres -c "ALTER DATABASE cards2 ALLOW_CONNECTIONS false"
check "down for now" test $? -eq 0
machine d health "$loop" --store "$url2"
machine d health "$loop" --store "$url2"
check "two results wait for it" test "$(queue_of d)" = 2
admin -d postgres -c "ALTER DATABASE cards2 ALLOW_CONNECTIONS true"
machine d history --store "$url2"
check "history --store sends the first" file_says "Sent 1 kept result to the store $url2" "$last.err"
check "and says how many still wait, and why" file_says "1 result waits for the store.*$url2.*terminat" "$last.err"
check "one still waits" test "$(queue_of d)" = 1

# A password given in the command line is refused before anything is
# touched, in every spelling, and printed nowhere; a URL libpq cannot
# read is not echoed at all. The environment is not in ps: allowed there.
n_before=$(rows "SELECT count(*) FROM cardmark_results")
for spelling in "postgresql://lab:$password@127.0.0.1:$port/cards" \
                "postgresql://lab@127.0.0.1:$port/cards?password=$password" \
                "postgresql://lab@127.0.0.1:$port/cards?pass%77ord=$password" \
                "postgresql://lab@127.0.0.1:$port/cards?%70assword=$password"; do
  machine a health "$loop" --store "$spelling"
  check "a password in --store is a usage error (${spelling%%$password*}…)" test "$status" -eq 2
  check "which says where a password goes" file_says "pgpass.*PGPASSWORD.*Password row" "$last.err"
  machine a history --store "$spelling"
  check "history too" test "$status" -eq 2
done
for spelling in "postgresql://lab:$password@[::1/cards" "postgresql://lab:S3cr3t%zz$password@127.0.0.1:$port/cards"; do
  machine a history --store "$spelling"
  check "a URL libpq cannot read is a usage error" test "$status" -eq 2
  check "and is not echoed" bash -c "! grep -q -e 'lab' -e '127.0.0.1' -e 'S3cr3t' -e '::1' '$last.err' '$last.out'"
done
check "nothing was sent meanwhile" test "$(rows "SELECT count(*) FROM cardmark_results")" = "$n_before"
PGPASSWORD= CARDMARK_STORE="postgresql://lab:$password@127.0.0.1:$port/cards?pass%77ord=$password" machine a health "$loop"
check "a password in CARDMARK_STORE is taken" test "$status" -eq 0
check "and the result is in the store" test "$(rows "SELECT count(*) FROM cardmark_results")" = "$((n_before + 1))"

check "the notices' escape sequences reached no output" bash -c "! grep -r -q -P '\x1b|\x07' '$out'"
check "nor their words" bash -c "! grep -r -q -e pwned -e 'root@lab' '$out'"
check "nor the schema's own notices" bash -c "! grep -r -q -i -e NOTICE -e 'already exists' '$out'"
check "the password is in no output" bash -c "! grep -r -q -F '$password' '$out'"
check "and in no file of any home" bash -c "! grep -r -q -F '$password' '$work/a' '$work/b' '$work/c' '$work/d'"

done_testing
