#!/bin/sh
# suite_trace.sh - dtplan --trace: the Chrome trace file of a whole plan.
# Prints "ok - ..." / "FAIL - ..." lines for tests/run.sh.  Run from the
# repository root; BUILD defaults to build.  The format itself is checked in
# detail by tests/unit/test_trace.c; here: the command line, atomic writing,
# valid JSON, one process per cluster, no effect on the report, determinism.
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
SC=tests/data/report/scaling.yaml
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-trace.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok - trace: $1"; }
fail() { echo "FAIL - trace: $1"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else fail "$d"; fi; }

if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi

"$DT" -q "$SC" > "$tmp/plain.txt" 2> "$tmp/err"
"$DT" -q --trace "$tmp/t.json" "$SC" > "$tmp/traced.txt" 2> "$tmp/err"
rc=$?
check "--trace exits 0" [ $rc -eq 0 ]
check "--trace prints nothing on stderr with -q" [ ! -s "$tmp/err" ]
check "--trace leaves the table unchanged" cmp -s "$tmp/plain.txt" "$tmp/traced.txt"
check "--trace writes the file" [ -s "$tmp/t.json" ]
check "no temporary file is left" [ -z "$(ls "$tmp" | grep '\.tmp\.')" ]

# Parse with perl's core JSON::PP; count processes, tracks, event kinds.
summary=$(perl -MJSON::PP -e '
    local $/; open my $f, "<", $ARGV[0] or die; my $j = decode_json(<$f>);
    my (%pid, %ph, $stands, $bad);
    for my $e (@{$j->{traceEvents}}) {
        $pid{$e->{pid}} = 1; $ph{$e->{ph}}++;
        $stands++ if $e->{ph} eq "M" && $e->{name} eq "thread_name" && $e->{args}{name} =~ /stands for/;
        $bad++ if $e->{ph} eq "X" && ($e->{dur} < 0 || $e->{ts} < 0);
    }
    printf "pids=%d X=%d s=%d f=%d C=%d M=%d stands=%d bad=%d scenario=%s\n", scalar(keys %pid),
        $ph{X} // 0, $ph{s} // 0, $ph{f} // 0, $ph{C} // 0, $ph{M} // 0, $stands // 0, $bad // 0,
        $j->{otherData}{scenario};
' "$tmp/t.json" 2>&1)
echo "# $summary"
nclusters=$(grep -c '^  - name:' "$SC")
check "valid JSON with one process per cluster ($nclusters)" \
    sh -c "echo '$summary' | grep -q '^pids=$nclusters '"
check "complete, flow, counter and metadata events are present" \
    sh -c "echo '$summary' | grep -Eq 'X=[1-9][0-9]* s=[1-9][0-9]* f=[1-9][0-9]* C=[1-9][0-9]* M=[1-9]'"
check "track names say how many ranks or nodes they stand for" \
    sh -c "echo '$summary' | grep -Eq 'stands=[1-9]'"
check "no negative times or durations" sh -c "echo '$summary' | grep -q 'bad=0 '"
check "the scenario name survives escaping" sh -c "echo '$summary' | grep -q 'scenario=report-scaling <p4d & p3>'"

"$DT" -q --trace="$tmp/t2.json" "$SC" > /dev/null 2>&1
check "the same scenario and seed give a byte-identical trace" cmp -s "$tmp/t.json" "$tmp/t2.json"
"$DT" -q --seed 4 --trace "$tmp/t3.json" "$SC" > /dev/null 2>&1
check "another seed gives another trace" sh -c "! cmp -s '$tmp/t.json' '$tmp/t3.json'"

"$DT" -q --json --trace "$tmp/t4.json" -o "$tmp/r.json" "$SC" > "$tmp/out" 2>&1
check "--trace works with --json -o" [ -s "$tmp/t4.json" -a -s "$tmp/r.json" -a ! -s "$tmp/out" ]

# Errors: missing value, unwritable path, bad scenario leaves no file.
"$DT" -q "$SC" --trace > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--trace without a file exits 2 with one line" \
    [ $rc -eq 2 -a "$(wc -l < "$tmp/err")" -eq 1 ]
check "the line names --trace" grep -q -- '--trace: expected a file name, found nothing' "$tmp/err"
"$DT" -q --trace "$tmp/no/such/dir/t.json" "$SC" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "an unwritable trace path exits 2" [ $rc -eq 2 ]
check "and says which file" grep -q "$tmp/no/such/dir/t.json" "$tmp/err"
printf 'name: [broken\n' > "$tmp/bad.yaml"
"$DT" -q --trace "$tmp/bad.json" "$tmp/bad.yaml" > /dev/null 2>&1
rc=$?
check "a bad scenario exits 2 and writes no trace" [ $rc -eq 2 -a ! -e "$tmp/bad.json" ]
