#!/bin/sh
# Bad-input tests of the dtplan binary: for each tests/bad/NAME.yaml,
# `$BUILD/dtplan tests/bad/NAME.yaml` must exit with status 2 and print the
# line in tests/bad/NAME.err as the first line of its standard error.  Prints
# "ok - ..." / "FAIL - ..." lines for tests/run.sh.  Run from the repository
# root.  tests/unit/test_scenario.c checks the same lines against the loader
# alone, so they are also tested when the binary has not been built.
BUILD=${BUILD:-build}
bin="$BUILD/dtplan"
if [ ! -x "$bin" ]; then
    echo "FAIL - bad input: $bin does not exist (run make)"
    exit 1
fi
err=$(mktemp "${TMPDIR:-/tmp}/dtplan-suite-bad.XXXXXX") || exit 1
trap 'rm -f "$err"' EXIT
status=0
for f in tests/bad/*.yaml; do
    name=$(basename "$f" .yaml)
    if [ ! -f "tests/bad/$name.err" ]; then
        echo "FAIL - bad input $name: tests/bad/$name.err is missing"
        status=1
        continue
    fi
    want=$(cat "tests/bad/$name.err")
    "$bin" "$f" >/dev/null 2>"$err" </dev/null
    rc=$?
    got=$(head -n 1 "$err")
    if [ "$rc" -eq 2 ] && [ "$got" = "$want" ]; then
        printf 'ok - bad input %s gives its error line\n' "$name"
    else
        printf 'FAIL - bad input %s: expected status 2 and "%s", got status %s and "%s"\n' \
            "$name" "$want" "$rc" "$got"
        status=1
    fi
done
exit $status
