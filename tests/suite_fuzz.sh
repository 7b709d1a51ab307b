#!/bin/sh
# The fuzz targets' regression inputs (tests/fuzz/regress/TARGET/*: what a
# campaign found, each named for what it broke; docs/cli.md "Fuzzing"),
# replayed through each target's replay driver ($BUILD/fuzz/replay_T, built
# by `make units`; under `make check` the sanitized one), and the scenario
# and profile ones through the dtplan binary as well: status 0, 1 or 2, and
# on failure one error line.
BUILD=${BUILD:-build}
bin="$BUILD/dtplan"
out=tests/out/fuzz-regress
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
