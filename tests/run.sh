#!/bin/sh
# Run every test of dtplan and close with "N passed, N failed".
# Unit programs print "ok - ..." / "FAIL - ..." lines; the shell suites in
# tests/*.sh print the same.  A test program that crashes counts as a failure.
BUILD=${BUILD:-build}
export BUILD
out=tests/out
mkdir -p "$out"
log="$out/all.log"
: > "$log"
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    name=$(basename "$t")
    "$t" > "$out/$name.log" 2>&1
    rc=$?
    cat "$out/$name.log" >> "$log"
    grep -q '^FAIL' "$out/$name.log" || [ $rc -eq 0 ] || \
        echo "FAIL - $name exited with status $rc" >> "$log"
done
for s in tests/suite_*.sh; do
    [ -f "$s" ] || continue
    sh "$s" >> "$log" 2>&1 || true
done
grep '^FAIL' "$log"
pass=$(grep -c '^ok - ' "$log")
fail=$(grep -c '^FAIL' "$log")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
