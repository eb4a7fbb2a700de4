#!/bin/bash
# cli-file-mode.sh — cardmark-cli bench on a folder: the safe test.
#
# SPDX-License-Identifier: GPL-3.0-or-later

source "$(dirname "$0")/lib/tap.sh"
need_test_hooks CARDMARK_NO_O_DIRECT

dir=$(mktemp -d "${TMPDIR:-/tmp}"/cardmark-file-XXXXXX)
out=$(mktemp -d)
trap 'rm -rf "$dir" "$out"' EXIT

head -c 1000000 /dev/urandom > "$dir/photo.jpg"
before=$(sha256sum "$dir/photo.jpg")

# --output over a file someone else owns, with its own mode, keeps both.
echo '{}' > "$out/saved.json"
chmod 0640 "$out/saved.json"
[ "$(id -u)" = 0 ] && chown nobody "$out/saved.json"
owner_mode=$(stat -c '%U %a' "$out/saved.json")
"$CARDMARK_CLI" bench "$dir" --json --output "$out/saved.json" > "$out/r.json" 2> "$out/err"
status=$?
check "--output over a file keeps its owner and mode ($owner_mode)" test "$(stat -c '%U %a' "$out/saved.json")" = "$owner_mode"
check "bench on a folder exits 0" test $status -eq 0
check "stdout is only the result document" json_check "$out/r.json" 'r["schema"] == 1'
check "--output writes the same document" cmp -s "$out/r.json" <(cat "$out/saved.json"; echo)
check "file mode is recorded" json_check "$out/r.json" 'r["target"]["mode"] == "file" and r["target"]["direct_io"] is True'
check "progress names each test as people say it" grep -q "^Running Sequential write (1 of 6)" "$out/err"
check "progress never names a test by its internal name" sh -c '! grep -qE "^Running [a-z0-9-]+ \(" "$0"' "$out/err"
check "all six tests ran" json_check "$out/r.json" \
  '[t["name"] for t in r["tests"]] == ["seq-write", "seq-read", "rand-write-4k", "rand-read-4k", "rand-write-4k-qd32", "rand-read-4k-qd32"]'
check "every test has figures" json_check "$out/r.json" \
  'all(t["mb_per_s"] > 0 and t["iops"] > 0 and t["bytes"] > 0 and t["seconds"] > 0 for t in r["tests"])'
check "latency percentiles are ordered" json_check "$out/r.json" \
  'all(0 < t["latency_us"]["p50"] <= t["latency_us"]["p90"] <= t["latency_us"]["p99"] <= t["latency_us"]["max"] for t in r["tests"])'
check "MB/s and IOPS agree with bytes and seconds" json_check "$out/r.json" \
  'all(abs(t["mb_per_s"] - t["bytes"] / t["seconds"] / 1e6) < 1e-6 * t["mb_per_s"] + 1e-9 for t in r["tests"])'
check "sequential tests cover the 256 MiB area and have a sustained rate" json_check "$out/r.json" \
  'all(t["bytes"] == 256 * 2**20 and t["sustained_mb_per_s"] > 0 for t in r["tests"] if t["name"].startswith("seq-"))'
check "random tests are time-based, first second not counted" json_check "$out/r.json" \
  'all(3.9 < t["seconds"] < 4.6 for t in r["tests"] if t["name"].startswith("rand-"))'
check "about four samples a second" json_check "$out/r.json" \
  'all(len(t["samples"]) >= 3 * t["seconds"] for t in r["tests"] if t["seconds"] > 1)'
check "progress went to stderr" grep -q "Random 4K read, 32 at once" "$out/err"
check "no scratch file left" test "$(ls -A "$dir")" = "photo.jpg"
check "existing files untouched" test "$(sha256sum "$dir/photo.jpg")" = "$before"

XDG_DATA_HOME="$out/data" "$CARDMARK_CLI" bench "$dir" --save --only seq-write,seq-read > "$out/table" 2>/dev/null
check "a plain run prints a table" grep -q "^Sequential read " "$out/table"
check "--save keeps the result in the history" test "$(ls "$out"/data/cardmark*/history/*.json | wc -l)" -eq 1
XDG_DATA_HOME="$out/data" "$CARDMARK_CLI" history --json > "$out/history.json"
check "history --json lists it" json_check "$out/history.json" 'len(r) == 1 and r[0]["tests"][1]["name"] == "seq-read"'
XDG_DATA_HOME="$out/data" "$CARDMARK_CLI" history > "$out/history.txt"
check "history prints a table, dated in words" grep -q "^$(LC_ALL=C.UTF-8 date +'%-d %B %Y'), " "$out/history.txt"
check "… and says the benchmark was a quick one" grep -q " Quick benchmark " "$out/history.txt"
check "history --json keeps the date in ISO 8601" json_check "$out/history.json" \
  'r[0]["started"].startswith("'"$(date -u +%Y-%m-%dT)"'")' 

# A filesystem that refuses O_DIRECT: buffered, flushed, and said so.
CARDMARK_NO_O_DIRECT=1 "$CARDMARK_CLI" bench "$dir" --only seq-write,seq-read,rand-read-4k --claim C10 --json > "$out/buffered.json" 2>/dev/null
check "the buffered fallback still measures" json_check "$out/buffered.json" \
  'r["target"]["direct_io"] is False and all(t["mb_per_s"] > 0 for t in r["tests"])'
check "the buffered fallback says figures may be inflated" json_check "$out/buffered.json" \
  'any("buffered" in n for n in r["notes"])'
check "classes are not judged on buffered figures" json_check "$out/buffered.json" \
  'all(c["status"] == "not-judged" for c in r["claims"]) and len(r["claims"]) > 0'

# Charts straight from bench.
"$CARDMARK_CLI" bench "$dir" --only seq-write,seq-read --plot "$out/chart.svg" > /dev/null 2>&1
check "bench --plot draws an SVG" grep -q "<svg" "$out/chart.svg"
# A symbolic link is never followed (someone else may have planted it
# where root writes): refused before anything is drawn, the file it
# points to left as it was.
echo old > "$out/two-target.png"
ln -s two-target.png "$out/link.png"
"$CARDMARK_CLI" plot "$out/r.json" "$out/buffered.json" --chart write-over-time --output "$out/link.png" 2> "$out/err"
check "plot --output refuses a symbolic link with status 2" test $? -eq 2
check "… saying it does not follow links" grep -q "symbolic link" "$out/err"
check "… and leaves the file it points to" test "$(cat "$out/two-target.png")" = old
echo old > "$out/two.png"
chmod 0600 "$out/two.png"
"$CARDMARK_CLI" plot "$out/r.json" "$out/buffered.json" --chart write-over-time --output "$out/two.png" 2>/dev/null
check "plot --output over a file keeps its mode" test "$(stat -c '%a' "$out/two.png")" = 600
check "plot draws several saved results as PNG" test "$(head -c 4 "$out/two.png" | tail -c 3)" = "PNG"

# At most six results at once: the palette has six colours, and a seventh
# card would share the first one's.
for i in 1 2 3 4 5 6 7; do cp "$out/r.json" "$out/card$i.json"; done
"$CARDMARK_CLI" plot "$out"/card[1-6].json --output "$out/six.svg" 2> "$out/err"
check "plot draws six results" test $? -eq 0
"$CARDMARK_CLI" plot "$out"/card[1-7].json --output "$out/seven.svg" 2> "$out/err"
check "plot refuses seven results with status 2" test $? -eq 2
check "… saying how many it can compare" grep -q "at most 6 results" "$out/err"
check "… and draws nothing" test ! -e "$out/seven.svg"

# Progress counts only the tests this target runs: a folder has no surface.
"$CARDMARK_CLI" bench "$dir" --profile full --only seq-read,surface-read > /dev/null 2> "$out/err"
check "progress counts the tests that run (1 of 1)" grep -qF "Sequential read (1 of 1)" "$out/err"

# A history folder or output folder that goes away during the run: the
# result is printed all the same, and each failure says what it was.
mkdir "$out/gone"
XDG_DATA_HOME="$out/late" "$CARDMARK_CLI" bench "$dir" --only rand-read-4k --json --save \
  --output "$out/gone/r.json" > "$out/late.json" 2> "$out/err" &
pid=$!
sleep 2
for h in "$out"/late/*/history; do rm -rf "$h"; touch "$h"; done
rm -rf "$out/gone"
wait $pid
check "a save that fails after the run exits 1" test $? -eq 1
check "… but the result was printed" json_check "$out/late.json" 'r["tests"][0]["name"] == "rand-read-4k"'
check "… the message names the history folder" grep -qE "history folder “$out/late/cardmark[^/]*/history”" "$out/err"
check "… and the output file that failed too" grep -qF "$out/gone/r.json" "$out/err"

# File mode needs no udisks2: a folder is tested without the system bus.
DBUS_SYSTEM_BUS_ADDRESS=unix:path=$out/no-bus "$CARDMARK_CLI" bench "$dir" --only seq-read --json \
  > "$out/nobus.json" 2> /dev/null
check "a folder is tested without udisks2 running" json_check "$out/nobus.json" \
  'r["target"]["mode"] == "file" and r["tests"][0]["mb_per_s"] > 0'

# A filesystem that holds no file past a limit (FAT32: 4 GiB; here a
# process file size limit of 1.25 GiB plays it): the long sustained write
# stops at the limit instead of failing with an I/O error.
bash -c 'trap "" XFSZ; ulimit -f $((1280 * 1024)); exec "$0" "$@"' \
  "$CARDMARK_CLI" bench "$dir" --profile full --only seq-write-sustained --json > "$out/limit.json" 2> "$out/err"
check "a file size limit does not end the run" test $? -eq 0
check "the sustained write stops at the limit" json_check "$out/limit.json" \
  'r["tests"][0].get("error") is None and r["tests"][0]["bytes"] == 1280 * 1024 * 1024 - r["target"]["area_bytes"]'
check "a note says why it stopped short" json_check "$out/limit.json" \
  'any("largest file this filesystem can hold" in n for n in r["notes"])'

# Ctrl-C in the middle of a run: exit 1 quickly, nothing left behind.
"$CARDMARK_CLI" bench "$dir" --profile full > /dev/null 2> "$out/err" &
pid=$!
sleep 2
kill -INT $pid
start=$(date +%s%N)
wait $pid
status=$?
elapsed_ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "Ctrl-C ends the run with status 5" test $status -eq 5
check "it says the benchmark stopped" grep -q "Benchmark stopped before the end" "$out/err"
check "Ctrl-C is acknowledged" grep -qi "cancel" "$out/err"
# The run stops within one block; the process's exit then frees the
# scratch file, up to 1 GiB of extents, on whatever disk TMPDIR is: the
# time is printed, not bounded, since a busy machine or a slow disk
# stretches it whatever CardMark does (a hang is meson's time-out).
echo "# Ctrl-C returned after ${elapsed_ms} ms"
check "no scratch file after Ctrl-C" test "$(ls -A "$dir")" = "photo.jpg"

# A scratch file left by a crash is removed at the next start.
touch "$dir/.cardmark-Ab12Cd"
"$CARDMARK_CLI" bench "$dir" --json > /dev/null 2>&1
check "a stale scratch file is removed at the next run" test "$(ls -A "$dir")" = "photo.jpg"

done_testing
