#!/bin/sh
# suite_advice.sh - every sentence of the recommendations checked against the
# table it sits under (tests/advice_check.pl), over the shipped scenarios, the
# seed cases and the test scenarios, listed and searched.  Prints "ok - ..." /
# "FAIL - ..." lines for tests/run.sh.  Run from the repository root; BUILD
# defaults to build.
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-advice.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

if [ ! -x "$DT" ]; then
    echo "FAIL - advice: $DT is not built"
    exit 0
fi
n=0
for f in scenarios/*.yaml scenarios/seeds/*.yaml tests/data/*.yaml tests/data/report/*.yaml; do
    n=$((n + 1))
    "$DT" -q --json "$f" > "$tmp/l$n.json" 2> "$tmp/err" || rm -f "$tmp/l$n.json"
done
for f in scenarios/*.yaml tests/data/plan/*.yaml; do
    n=$((n + 1))
    "$DT" plan -q --json "$f" > "$tmp/p$n.json" 2> "$tmp/err" || rm -f "$tmp/p$n.json"
done
got=$(ls "$tmp"/*.json | wc -l | tr -d ' ')
if [ "$got" -ge 30 ]; then
    echo "ok - advice: $got of $n scenarios planned"
else
    echo "FAIL - advice: only $got of $n scenarios planned"
fi
perl tests/advice_check.pl "$tmp"/*.json
