#!/bin/bash
# cli-health.sh — cardmark-cli health and decode --gen-cmd: saved replies
# of each documented layout (tests/data/gen-cmd, made by its
# make-replies.py) decode to the figures put in them, a blank one is not
# known; a card behind a loop device cannot be asked (exit 0, health
# "no-access"); with the replay transport the kind keeps the card's
# answer in the document's card.health and says it as its outcome.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

replies=$(cd "$(dirname "$0")/data/gen-cmd" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-health-XXXXXX)
export XDG_DATA_HOME=$work/xdg
devices=()
cleanup () {
  for d in "${devices[@]}"; do losetup -d "$d" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

"$CARDMARK_CLI" decode --gen-cmd "$replies/longsys.bin" --json > "$work/out"
check "decode --gen-cmd exits 0" test $? -eq 0
check "Longsys: life, blocks, erases, flash bytes" json_check "$work/out" \
  'r["layout"] == "longsys" and r["life_used_percent"] == 12 and r["bad_blocks"] == 35 and r["spare_blocks"] == 120 and r["erase_count"]["avg"] == 42 and r["flash_bytes_written"] == 700 << 30'
check "every documented key" json_check "$work/out" \
  'set(r) == {"state", "layout", "life_used_percent", "spare_blocks", "bad_blocks", "erase_count", "power_cycles", "flash_bytes_written"} and set(r["erase_count"]) == {"min", "avg", "max"}'
"$CARDMARK_CLI" decode --gen-cmd "$replies/sandisk.bin" --json > "$work/out"
check "SanDisk: 0x0d is 12 % used, and the power-on count" json_check "$work/out" \
  'r["layout"] == "sandisk" and r["life_used_percent"] == 12 and r["power_cycles"] == 4321 and r["bad_blocks"] is None'
"$CARDMARK_CLI" decode --gen-cmd "$replies/swissbit.bin" --json > "$work/out"
check "Swissbit" json_check "$work/out" \
  'r["layout"] == "swissbit" and r["life_used_percent"] == 3 and r["erase_count"] == {"min": None, "avg": 310, "max": 900} and r["power_cycles"] == 1234'
"$CARDMARK_CLI" decode --gen-cmd "$replies/zeros.bin" --json > "$work/out"
check "a reply of zeros is not known" json_check "$work/out" \
  'r["state"] == "not-known" and r["layout"] is None and r["life_used_percent"] is None'
"$CARDMARK_CLI" decode --gen-cmd "$replies/two-step.bin" --json > "$work/out"
check "no signature, no maker: not known" json_check "$work/out" 'r["layout"] is None'
"$CARDMARK_CLI" decode --gen-cmd "$replies/two-step.bin" --cid 41000000000000000000000000000000 --json > "$work/out"
check "no signature from a Kingston card: the two-step layout" json_check "$work/out" \
  'r["layout"] == "two-step" and r["life_used_percent"] == 3.5 and r["power_cycles"] == 77'
"$CARDMARK_CLI" decode --gen-cmd "$replies/sandisk.bin" > "$work/out"
check "the table says the share of life used" grep -q "12 % of its life used" "$work/out"
head -c 100 "$replies/sandisk.bin" > "$work/short.bin"
"$CARDMARK_CLI" decode --gen-cmd "$work/short.bin" > "$work/out" 2> "$work/err"
check "a short file exits 1" test $? -eq 1
check "and says what a reply is" grep -q "exactly 512 bytes" "$work/err"
"$CARDMARK_CLI" decode --gen-cmd "$replies/sandisk.bin" --csd 00 > /dev/null 2> "$work/err"
check "--gen-cmd with a register is a usage error" test $? -eq 2

[ "$(id -u)" = 0 ] || { skip "loop devices need root"; done_testing; }
truncate -s 16M "$work/a.img" "$work/b.img"
devices+=("$(losetup -f --show "$work/a.img")")
devices+=("$(losetup -f --show "$work/b.img")")

"$CARDMARK_CLI" health "${devices[0]}" > "$work/out" 2> "$work/err"
check "a loop device: exit 0" test $? -eq 0
check "it says the reader cannot ask the card" grep -q "This reader cannot ask the card" "$work/out"
"$CARDMARK_CLI" health "${devices[0]}" --json > "$work/out"
check "the document: kind health, card.health no-access" json_check "$work/out" \
  'r["kind"] == "health" and r["card"]["health"]["state"] == "no-access" and r["card"]["health"]["life_used_percent"] is None'

need_test_hooks CARDMARK_TEST_GEN_CMD_DIR
mkdir "$work/replay"
cp "$replies/swissbit.bin" "$work/replay/53420001.bin"
CARDMARK_TEST_GEN_CMD_DIR=$work/replay "$CARDMARK_CLI" health "${devices[@]}" --json > "$work/out"
check "replayed: exit 0" test $? -eq 0
check "both cards' documents, in order, with the card's answer" json_check "$work/out" \
  "len(r) == 2 and all(d['card']['health']['layout'] == 'swissbit' and d['card']['health']['life_used_percent'] == 3 for d in r) and r[0]['target']['path'] == '${devices[0]}'"
CARDMARK_TEST_GEN_CMD_DIR=$work/replay "$CARDMARK_CLI" health "${devices[0]}" > "$work/out"
check "the table" grep -q "3 % of its life used" "$work/out"
check "and its power cycles" grep -q "1234" "$work/out"
cp "$replies/zeros.bin" "$work/replay/53420001.bin"
CARDMARK_TEST_GEN_CMD_DIR=$work/replay "$CARDMARK_CLI" health "${devices[0]}" --json > "$work/out"
check "a card that answers zeros: not known, exit 0" json_check "$work/out" \
  'r["card"]["health"]["state"] == "not-known" and r["card"]["health"]["layout"] is None'

# The wear test asks before and after each round: Longsys replies whose
# flash counter grows by 1 GiB in round 1 and by 3 GiB in round 2.
rm -f "$work/replay/"*
python3 - "$replies/longsys.bin" "$work/replay" <<'PY'
import struct, sys
base = bytearray(open(sys.argv[1], 'rb').read())
for n, gib in enumerate([100, 101, 101, 104], start=1):
    struct.pack_into('<I', base, 56, gib)
    open('%s/00000001.%d.bin' % (sys.argv[2], n), 'wb').write(base)
PY
CARDMARK_TEST_GEN_CMD_DIR=$work/replay "$CARDMARK_CLI" endure "${devices[1]}" --destroy-data --rounds 2 --json --csv "$work/wear.csv" > "$work/out" 2> "$work/err"
check "a replayed wear test of 2 rounds ends (exit 0)" test $? -eq 0
check "each round has the card's flash bytes" json_check "$work/out" \
  '[x["flash_bytes_written"] for x in r["endurance"]["rounds"]] == [1 << 30, 3 << 30]'
check "and its write amplification: flash bytes ÷ the bytes the round wrote" json_check "$work/out" \
  'all(abs(x["write_amplification"] - x["flash_bytes_written"] / (16 << 20)) < 1e-9 for x in r["endurance"]["rounds"])'
check "the card's last answer is its health" json_check "$work/out" \
  'r["card"]["health"]["flash_bytes_written"] == 104 << 30'
check "--csv has the same flash bytes and write amplification" python3 - "$work/wear.csv" "$work/out" <<'PY'
import csv, json, sys
rows = list(csv.DictReader(open(sys.argv[1])))
doc = json.load(open(sys.argv[2]))['endurance']['rounds']
sys.exit(0 if len(rows) == len(doc) and all(int(a['flash_bytes_written']) == b['flash_bytes_written']
                                            and abs(float(a['write_amplification']) - b['write_amplification']) < 1e-3
                                            for a, b in zip(rows, doc)) else 1)
PY
rm -f "$work/replay/"*
"$CARDMARK_CLI" endure "${devices[1]}" --destroy-data --rounds 1 --json --csv "$work/blank.csv" > "$work/out" 2> "$work/err"
check "a card that cannot be asked: null, not zero" json_check "$work/out" \
  'r["endurance"]["rounds"][0]["flash_bytes_written"] is None and r["endurance"]["rounds"][0]["write_amplification"] is None'
check "and --csv leaves its flash columns empty" python3 - "$work/blank.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
sys.exit(0 if len(rows) == 1 and rows[0]['flash_bytes_written'] == '' and rows[0]['write_amplification'] == '' else 1)
PY
printf 'round,write_mb_per_s,read_mb_per_s,sectors,bad_sectors,new_bad_sectors,bytes_written,seconds\n' > "$work/old.csv"
"$CARDMARK_CLI" endure "${devices[1]}" --destroy-data --rounds 1 --csv "$work/old.csv" > /dev/null 2> "$work/err"
check "a --csv file begun without the flash columns keeps its 8 columns" \
  test "$(tail -n 1 "$work/old.csv" | awk -F, '{ print NF }')" -eq 8
# Weeks of rounds after the old header: still the first line decides.
{
  printf 'round,write_mb_per_s,read_mb_per_s,sectors,bad_sectors,new_bad_sectors,bytes_written,seconds\n'
  seq 1 20000 | awk '{ print $1 ",10.0,20.0,32768,0,0," $1 * 16777216 ",1.6" }'
} > "$work/long.csv"
"$CARDMARK_CLI" endure "${devices[1]}" --destroy-data --rounds 1 --csv "$work/long.csv" > /dev/null 2> "$work/err"
check "a long --csv file begun without the flash columns keeps its 8 columns" \
  test "$(tail -n 1 "$work/long.csv" | awk -F, '{ print NF }')" -eq 8
# A header that begins as the old one but goes on is this CardMark's.
printf 'round,write_mb_per_s,read_mb_per_s,sectors,bad_sectors,new_bad_sectors,bytes_written,seconds,flash_bytes_written,write_amplification\n' > "$work/new.csv"
"$CARDMARK_CLI" endure "${devices[1]}" --destroy-data --rounds 1 --csv "$work/new.csv" > /dev/null 2> "$work/err"
check "a --csv file begun with the flash columns keeps its 10 columns" \
  test "$(tail -n 1 "$work/new.csv" | awk -F, '{ print NF }')" -eq 10

done_testing
