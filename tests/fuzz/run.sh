#!/bin/sh
# Run libFuzzer targets built by `make fuzz-build`:
#   sh tests/fuzz/run.sh BUILD SECONDS TARGET...
# Each target runs SECONDS seconds from its seed corpus (tests/fuzz/seeds.sh,
# the project's own files) and the corpus it grew before (BUILD/fuzz/corpus-T),
# with its dictionary (tests/fuzz/T.dict).  With FUZZ_JOBS=N (default 1) N
# targets run at once.  Prints one line per target: "ok - fuzz T: ..." with
# its executions and coverage, or "FAIL - fuzz T: ..." naming the input kept
# under BUILD/fuzz/artifacts-T/ (replay it: BUILD/fuzz/fuzz_T FILE).  Exit 1
# when any target failed.
build=${1:?usage: run.sh BUILD SECONDS TARGET...}
secs=${2:?usage: run.sh BUILD SECONDS TARGET...}
shift 2
jobs=${FUZZ_JOBS:-1}
dir="$build/fuzz"
sh tests/fuzz/seeds.sh "$dir/seeds" || exit 2

one() { # TARGET
    t=$1
    mkdir -p "$dir/corpus-$t" "$dir/artifacts-$t"
    log="$dir/fuzz-$t.log"
    "$dir/fuzz_$t" -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        -dict="tests/fuzz/$t.dict" -artifact_prefix="$dir/artifacts-$t/" \
        "$dir/corpus-$t" "$dir/seeds/$t" > "$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
    corp=$(ls "$dir/corpus-$t" | wc -l | tr -d ' ')
    if [ $rc -eq 0 ]; then
        echo "ok - fuzz $t: ${execs:-0} executions in $secs s, coverage ${cov:-0} edges (${ft:-0} features), corpus $corp inputs"
    else
        art=$(ls -t "$dir/artifacts-$t" 2>/dev/null | head -1)
        echo "FAIL - fuzz $t: status $rc after ${execs:-?} executions; input $dir/artifacts-$t/$art; log $log: $(grep -m1 -E 'ERROR|runtime error|fuzz:' "$log")"
    fi
}

fail=0
set -- "$@"
while [ $# -gt 0 ]; do
    pids=
    i=0
    while [ $# -gt 0 ] && [ $i -lt "$jobs" ]; do
        one "$1" > "$dir/result-$1" &
        pids="$pids $!"
        names="$names $1"
        shift
        i=$((i + 1))
    done
    wait
done
for t in $names; do
    cat "$dir/result-$t"
    grep -q '^FAIL' "$dir/result-$t" && fail=1
done
exit $fail
