#!/bin/sh
# Golden end-to-end tests: each scenario of scenarios/ and scenarios/seeds/ in, the full table
# and JSON out, compared with the reviewed files in tests/golden/.  After a deliberate change,
# regenerate with: UPDATE_GOLDEN=1 sh tests/suite_golden.sh (and review the diff).
BUILD=${BUILD:-build}
bin="$BUILD/dtplan"
# the prices' ages at the date tests/run.sh fixes, also when run alone
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-1795651200}
export SOURCE_DATE_EPOCH
gold_out=${DT_TEST_OUT:-tests/out}/golden
mkdir -p "$gold_out" tests/golden
for f in scenarios/*.yaml scenarios/seeds/*.yaml; do
    [ -f "$f" ] || continue
    name=$(basename "$f" .yaml)
    for fmt in txt json; do
        out="$gold_out/$name.$fmt"
        if [ "$fmt" = json ]; then "$bin" -q --json "$f" > "$out" 2>&1; else "$bin" -q "$f" > "$out" 2>&1; fi
        rc=$?
        if [ -n "$UPDATE_GOLDEN" ]; then
            cp "$out" "tests/golden/$name.$fmt"
        fi
        if [ $rc -ne 0 ]; then
            echo "FAIL - golden $name.$fmt: dtplan exited with $rc: $(head -1 "$out")"
        elif cmp -s "$out" "tests/golden/$name.$fmt"; then
            echo "ok - golden $name.$fmt matches the reviewed output"
        else
            echo "FAIL - golden $name.$fmt differs from tests/golden/$name.$fmt:"
            diff "tests/golden/$name.$fmt" "$out" | head -10 | sed 's/^/#   /'
        fi
    done
done
