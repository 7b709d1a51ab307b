#!/bin/sh
# run.sh - run every test of dtplan and close with "N passed, N failed".
#
# Unit programs ($BUILD/tests/test_*) print "ok - ..." / "FAIL - ..." lines;
# the shell suites (tests/suite_*.sh) print the same.  A unit program that
# exits with a status other than 0 without printing a FAIL line (a crash)
# counts as a failure: "FAIL - NAME exited with status N".
#
# The programs and suites run side by side, DT_TEST_JOBS at a time (default:
# the number of processors; BESIDE's beside them), the longest first (SLOW below, measured on a
# 2-core machine) so that the last job to start is a short one.  Each writes
# its own log; the logs are then joined in a fixed order, unit programs by
# name and then suites by name, so the output is the same whichever job
# finished first.  Standard output gets the FAIL lines and the closing count.
#
# Each run writes under a directory of its own, tests/out/run.PID, exported
# to the tests as DT_TEST_OUT (the ones that keep files put them there), so
# two runs at once in one checkout do not meet.  At the end the run's joined
# log is copied to tests/out/all.log, tests/out/last points at the run's
# directory (times.txt there: seconds per job), and directories of runs that
# are no longer alive are removed.
#
#   sh tests/run.sh            (make test; BUILD picks the build tree)
#   sh tests/run.sh --job NAME (one job, as the pool calls it)
BUILD=${BUILD:-build}
export BUILD
# The date reports take the prices' ages at (cli/report_prices.c): fixed, so
# that the goldens do not age with the calendar (2026-11-26).
SOURCE_DATE_EPOCH=1795651200
export SOURCE_DATE_EPOCH

# The longest jobs, longest first; every other job follows, in name order.
# Seconds on the 2-core machine (make test, 2026-11-28): suite_validate 46 to
# 80 (its emulated links set the pace; the longer when their calibrations are
# poor under the load beside it and run again), suite_advice 47 to 64,
# suite_html_llm 21, suite_plan 19, suite_llm_runs 19 (it also checks
# validate/published.pl), test_fuzz 11 (minutes under make check's sanitizers
# and full count), test_search 9, suite_parts 9, suite_calibrate 9,
# suite_golden 6, suite_html 5, suite_outputs 5, suite_published 3,
# suite_bound 2, suite_fuzz 2; the rest 2 or less.
# suite_validate spends most of its time waiting: on its emulated links,
# shaped to 50 and 200 Mbit/s, and on the pauses before a calibration runs
# again.  It runs beside the pool (BESIDE), started first, not in one of its
# DT_TEST_JOBS lanes, so that the lanes are the processors' work.
BESIDE="suite_validate"
SLOW="suite_advice suite_html_llm suite_plan suite_llm_runs test_fuzz test_search suite_parts suite_calibrate suite_golden suite_html suite_outputs suite_published suite_bound suite_fuzz"

# One job: NAME's log to $DT_TEST_OUT/NAME.log, its seconds to NAME.time.
run_job() {
    name=$1
    log="$DT_TEST_OUT/$name.log"
    start=$(date +%s)
    case $name in
    test_*)
        "$BUILD/tests/$name" > "$log" 2>&1
        rc=$?
        grep -q '^FAIL' "$log" || [ $rc -eq 0 ] || echo "FAIL - $name exited with status $rc" >> "$log"
        ;;
    suite_*)
        sh "tests/$name.sh" > "$log" 2>&1
        ;;
    esac
    echo "$name $(($(date +%s) - start))" > "$DT_TEST_OUT/$name.time"
}

if [ "${1:-}" = --job ]; then
    [ -n "${2:-}" ] && run_job "$2"
    exit 0
fi

# A directory per run, under tests/out.
mkdir -p tests/out || exit 1
DT_TEST_OUT=tests/out/run.$$
export DT_TEST_OUT
rm -rf "$DT_TEST_OUT"
mkdir "$DT_TEST_OUT" || exit 1

# The jobs, in the order of the final log: unit programs, then suites.
units=""
for t in "$BUILD"/tests/test_*; do
    [ -x "$t" ] || continue
    units="$units ${t##*/}"
done
suites=""
for s in tests/suite_*.sh; do
    [ -f "$s" ] || continue
    s=${s##*/}
    suites="$suites ${s%.sh}"
done

# BESIDE's jobs that exist, started now; the queue: SLOW's jobs that exist,
# then the rest.
beside=""
for j in $BESIDE; do
    case " $units $suites " in *" $j "*) beside="$beside $j" ;; esac
done
for j in $beside; do
    sh "$0" --job "$j" &
done
queue=""
for j in $SLOW; do
    case " $units $suites " in *" $j "*) queue="$queue $j" ;; esac
done
for j in $units $suites; do
    case " $SLOW $BESIDE " in *" $j "*) ;; *) queue="$queue $j" ;; esac
done

jobs=${DT_TEST_JOBS:-$(nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
printf '%s\n' $queue | xargs -n 1 -P "$jobs" sh "$0" --job
wait    # the jobs beside the pool

log="$DT_TEST_OUT/all.log"
: > "$log"
for j in $units $suites; do
    cat "$DT_TEST_OUT/$j.log" >> "$log" 2>/dev/null ||
        echo "FAIL - $j wrote no log" >> "$log"
done
cat "$DT_TEST_OUT"/*.time 2>/dev/null | sort -k2,2nr -k1,1 > "$DT_TEST_OUT/times.txt"

# For people: tests/out/all.log and tests/out/last, replaced whole.
cp "$log" "tests/out/all.log.tmp.$$" && mv -f "tests/out/all.log.tmp.$$" tests/out/all.log
rm -f tests/out/last
ln -s "run.$$" tests/out/last 2>/dev/null
for d in tests/out/run.*; do
    [ -d "$d" ] || continue
    p=${d##*.}
    [ "$p" = $$ ] && continue
    case $p in *[!0-9]*) continue ;; esac
    kill -0 "$p" 2>/dev/null || [ -d "/proc/$p" ] || rm -rf "$d"
done

grep '^FAIL' "$log"
pass=$(grep -c '^ok - ' "$log")
fail=$(grep -c '^FAIL' "$log")
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
