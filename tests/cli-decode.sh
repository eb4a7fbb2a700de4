#!/bin/bash
# cli-decode.sh — cardmark-cli decode on real register dumps from
# sd-register-vectors.tsv: the JSON carries the decoded fields, bad dumps
# exit 2 with a message.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"

: "${CARDMARK_SHARED:?run through meson test}"
tsv="$CARDMARK_SHARED/reference/sd-register-vectors.tsv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# field ROW-ID COLUMN: one cell of the vectors.
field () {
  python3 - "$tsv" "$1" "$2" <<'PY'
import csv, sys
with open(sys.argv[1], newline='') as f:
    for row in csv.DictReader(f, delimiter='\t'):
        if row['id'] == sys.argv[2]:
            print(row[sys.argv[3]])
            sys.exit(0)
sys.exit(1)
PY
}

# decode ARGS…: runs the CLI; stdout in $work/out, stderr in $work/err,
# status in $status.
decode () {
  "$CARDMARK_CLI" decode "$@" > "$work/out" 2> "$work/err"
  status=$?
}

# Kingston Canvas Go Plus: sysfs date 04/2023, serial 0x4b1004af; MID 0x9f
# OID "TI" PNM "SD64G" per the sibling rows' sysfs values.
row=lkml-kingston-canvas-go-plus-sd64g-2023-04
decode --cid "$(field $row cid)" --csd "$(field $row csd)" \
       --scr "$(field $row scr)" --ssr "$(field $row ssr)" --json
check "decode --json exits 0" test "$status" -eq 0
check "the CID fields" json_check "$work/out" \
  'r["manufacturer_id"] == 0x9f and r["oem_id"] == "TI" and r["product_name"] == "SD64G"'
check "serial and date as sysfs shows them" json_check "$work/out" \
  'r["serial"] == "0x4b1004af" and r["manufacture_date"] == "2023-04"'
check "registers are available" json_check "$work/out" \
  'r["registers_available"] is True and r["unavailable_reason"] is None'
check "every documented key" json_check "$work/out" \
  'set(r) == {"registers_available", "unavailable_reason", "brand", "manufacturer_id", "manufacturer", "oem_id", "product_name", "revision", "serial", "manufacture_date", "capacity_bytes", "write_protected", "spec_version", "speed_class", "uhs_grade", "video_class", "app_class", "au_size_bytes", "card_type", "performance_enhance", "warnings"}'
check "the SSR declares A2 (the card's cache is in the thread)" json_check "$work/out" 'r["app_class"] == "A2"'

# Panasonic 8 GB Class 4: sdio-host expects 7744782336 bytes and
# speed_class 2 (Class 4); its SSR starts 80000000.
row=sdiohost-panasonic-y08ag-8gb-c4
decode --cid "$(field $row cid)" --csd "$(field $row csd)" --ssr "$(field $row ssr)" --json
check "Panasonic capacity and class" json_check "$work/out" \
  'r["capacity_bytes"] == 7744782336 and r["speed_class"] == "C4" and r["manufacturer"] == "Panasonic"'
check "no SCR given, so no spec version" json_check "$work/out" 'r["spec_version"] is None'

decode --cid "$(field $row cid)"
check "the table names the product" grep -q "Y08AG" "$work/out"
check "the table is not JSON" bash -c "! grep -q manufacturer_id \"$work/out\""

# CID decodes as SanDisk SU04G although labelled Transcend.
row=libmaple-transcend-4gb
decode --cid "$(field $row cid)" --brand Transcend
check "a brand the registers contradict is a warning sign" grep -q "SanDisk" "$work/out"
check "… shown under Warning signs" grep -qi "warning" "$work/out"
decode --cid "$(field $row cid)" --brand Transcend --json
check "decode --json lists the warning signs too" json_check "$work/out" \
  'len(r["warnings"]) > 0 and any("SanDisk" in w for w in r["warnings"])'
decode --cid "$(field $row cid)" --json
check "… an empty list when there are none" json_check "$work/out" 'r["warnings"] == []'

decode --cid "0x$(field $row cid | tr a-f A-F)"
check "upper case with 0x prefix decodes" grep -q "SU04G" "$work/out"

decode --cid 0353445355303447801580zz
check "bad hex exits 2" test "$status" -eq 2
check "… and says why" grep -qi "hexadecimal" "$work/err"
check "… on stderr only" test ! -s "$work/out"

decode --scr 0235
check "a short register exits 2" test "$status" -eq 2

decode
check "no register exits 2" test "$status" -eq 2
decode --json
check "--json alone exits 2" test "$status" -eq 2
decode --cid
check "an option without its value exits 2" test "$status" -eq 2

done_testing
