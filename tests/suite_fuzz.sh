#!/bin/sh
# The fuzz targets' regression inputs (tests/fuzz/regress/TARGET/*: what a
# campaign found, each named for what it broke; docs/cli.md "Fuzzing"),
# replayed through each target's replay driver ($BUILD/fuzz/replay_T, built
# by `make units`; under `make check` the sanitized one), and the scenario
# and profile ones through the dtplan binary as well: status 0, 1 or 2, and
# on failure one error line.
BUILD=${BUILD:-build}
bin="$BUILD/dtplan"
out=${DT_TEST_OUT:-tests/out}/fuzz-regress
mkdir -p "$out"
for t in scenario catalog profile; do
    r="$BUILD/fuzz/replay_$t"
    if [ ! -x "$r" ]; then
        echo "FAIL - fuzz regress $t: $r not built (make units)"
        continue
    fi
    n=0
    for f in tests/fuzz/regress/$t/*; do
        [ -f "$f" ] || continue
        n=$((n + 1))
        DT_FUZZ_TARGET=$t "$r" "$f" > "$out/$t.log" 2>&1
        rc=$?
        if [ $rc -eq 0 ] && grep -q '^ok - ' "$out/$t.log"; then
            echo "ok - fuzz regress $t: $(basename "$f") replays with every promise kept"
        else
            echo "FAIL - fuzz regress $t: $(basename "$f"): status $rc: $(grep -m1 -E 'fuzz:|ERROR|runtime error' "$out/$t.log")"
        fi
    done
    [ $n -gt 0 ] || echo "FAIL - fuzz regress $t: no regression inputs in tests/fuzz/regress/$t"
done

# Inputs too large to commit, generated here: a SkyPilot vms.csv of 3 million
# short rows (67.9 MB, over the 16 MiB cap on an input file) and one of 200,001
# rows (4 MB, over the row cap), each through the catalog target (its byte 3
# selects vms.csv) and through `dtplan catalog list`: exit 2 and the one line.
big=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-fuzz-big.XXXXXX") || exit 1
trap 'rm -rf "$big"' EXIT INT TERM
sky_rows() { # sky_rows N FILE: a header and N rows of SkyPilot's columns
    awk -v n="$1" 'BEGIN { print "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,SpotPrice,Region,AvailabilityZone"
        for (i = 0; i < n; i++) printf "t%d,,,1,1,,1,,r,z\n", i }' > "$2"
}
big_case() { # big_case NAME ROWS EXPECTED-LINE (FILE stands for the path)
    f="$big/$1/vms.csv"
    mkdir -p "$big/$1"
    sky_rows "$2" "$f"
    { printf '\003'; cat "$f"; } > "$big/$1.fuzz"
    DT_FUZZ_TARGET=catalog "$BUILD/fuzz/replay_catalog" "$big/$1.fuzz" > "$out/big.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^ok - ' "$out/big.log"; then
        echo "ok - fuzz regress catalog: $1 (generated, $2 rows) replays with every promise kept"
    else
        echo "FAIL - fuzz regress catalog: $1 (generated): status $rc: $(grep -m1 -E 'fuzz:|ERROR|runtime error' "$out/big.log")"
    fi
    "$bin" catalog list --catalog "$f" > "$out/big.out" 2> "$out/err"
    rc=$?
    want=$(printf '%s' "$3" | sed "s|FILE|$f|")
    if [ $rc -eq 2 ] && [ ! -s "$out/big.out" ] && [ "$(cat "$out/err")" = "$want" ]; then
        echo "ok - fuzz regress dtplan catalog list $1 (generated, $2 rows): status 2, $want"
    else
        echo "FAIL - fuzz regress dtplan catalog list $1: status $rc, expected 2 and \"$want\", got \"$(head -c 300 "$out/err")\""
    fi
    rm -f "$f" "$big/$1.fuzz"
}
big_case sky-3m-rows 3000000 "FILE: 67889000 bytes, expected at most 16777216"
big_case sky-rows-over-cap 200001 "FILE:200002: more than 200000 rows"
rm -rf "$big"

# Through the binary: a scenario on a path and on standard input; a profile
# named by a scenario.
one_line() { # WHAT RC ERRFILE
    if { [ "$2" -eq 0 ] || [ "$2" -eq 1 ] || [ "$2" -eq 2 ]; } &&
       { [ "$2" -eq 0 ] || [ "$(wc -l < "$3")" -eq 1 ]; } &&
       ! LC_ALL=C grep -q "$(printf '[\001-\010\013-\037\177]')" "$3"; then
        echo "ok - fuzz regress dtplan $1: status $2, $( [ "$2" -eq 0 ] && echo "no error" || echo "one printable error line")"
    else
        echo "FAIL - fuzz regress dtplan $1: status $2, stderr: $(head -c 300 "$3" | od -c | head -3)"
    fi
}
for f in tests/fuzz/regress/scenario/*; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    "$bin" -q --json "$f" > /dev/null 2> "$out/err"
    one_line "$b" $? "$out/err"
    "$bin" -q --json - < "$f" > /dev/null 2> "$out/err"
    one_line "$b (stdin)" $? "$out/err"
done
for f in tests/fuzz/regress/profile/*; do
    [ -f "$f" ] || continue
    b=$(basename "$f")
    cp "$f" "$out/profile.json"
    printf 'name: p\nprofile: profile.json\nworkload: {model: resnet50, batch_per_gpu: 32}\ninput: {cpu_s_per_sample: 0.001}\nclusters:\n  - name: a\n    groups: [{instance: p3.2xlarge, count: 1}]\n' > "$out/p.yaml"
    "$bin" -q "$out/p.yaml" > /dev/null 2> "$out/err"
    one_line "profile $b" $? "$out/err"
done
