#!/bin/sh
# suite_outputs.sh - every subcommand against every output fault, and every
# pair of output flags naming one file (docs/cli.md "Outputs" and "Exit
# status").  Prints "ok - ..." / "FAIL - ..." lines for tests/run.sh.  Run
# from the repository root; BUILD defaults to build.
#
# The promises checked:
#   - 0 done, 1 could not write (a full disk, a closed standard output),
#     2 bad input (an output path that cannot be created, two outputs on
#     one file);
#   - a failure prints exactly one line on stderr, naming the command, and
#     where a file is at fault, the file and the reason;
#   - nothing is left behind: no temporary, no partly written output, and a
#     file that was there before is byte-identical.
BUILD=${BUILD:-build}
DT="$PWD/$BUILD/dtplan"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-outputs.XXXXXX") || exit 1
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok - outputs: $1"; }
fail() { echo "FAIL - outputs: $1"; }
check() { # check DESCRIPTION COMMAND...: ok when COMMAND succeeds
    d=$1
    shift
    if "$@"; then ok "$d"; else fail "$d"; fi
}
lines() { wc -l < "$1" | tr -d ' '; }

if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi

S="$PWD/tests/data/cli/tiny.yaml"
P="$PWD/tests/data/plan/enumerate-small.yaml"
SKY="$PWD/tests/data/skypilot/aws/vms.csv"

# The subcommands, one a line: NAME|PREFIX|COMMAND (OUT stands for the output
# path; a command without OUT writes on standard output only).
cat > "$tmp/cmds" <<EOF
run|dtplan|"\$DT" -q -o OUT "$S"
run --json|dtplan|"\$DT" -q --json -o OUT "$S"
run --trace|dtplan|"\$DT" -q --trace OUT "$S"
run --report|dtplan|"\$DT" -q --report OUT "$S"
run --save-json|dtplan|"\$DT" -q --save-json OUT "$S"
plan|dtplan plan|"\$DT" plan -q -o OUT "$P"
plan --report|dtplan plan|"\$DT" plan -q --report OUT "$P"
plan --save-json|dtplan plan|"\$DT" plan -q --save-json OUT "$P"
compute|dtplan compute|"\$DT" compute --model resnet50 --gpu A100 -o OUT
collectives|dtplan collectives|"\$DT" collectives --instance p4d.24xlarge -e 4M -o OUT
catalog list|dtplan catalog list|"\$DT" catalog list --gpu A100 -o OUT
catalog storage|dtplan catalog storage|"\$DT" catalog storage --cloud gcp -o OUT
calibrate|dtplan calibrate|"\$DT" calibrate --quick --coll-cmd "echo 0.001" -o OUT
EOF

# Run one line of cmds with OUT replaced by $1; stdout to $2 ("-": kept,
# "closed": closed); stderr to $tmp/err; the status in $rc.
run_cmd() {
    c=$(printf '%s' "$line" | cut -d'|' -f3- | sed "s|OUT|$1|g")
    case $2 in
    closed) eval "$c" > "$tmp/out" 2> "$tmp/err" >&- ;;
    -) eval "$c" > "$tmp/out" 2> "$tmp/err" ;;
    *) eval "$c" > "$2" 2> "$tmp/err" ;;
    esac
    rc=$?
}

# One error line, beginning "PREFIX: " and holding each argument.  A
# calibration prints its progress on stderr first ("PREFIX: PART: ..."
# lines): its error is the last line, and no other line is an error.
one_line() {
    if [ "$prefix" = "dtplan calibrate" ] && [ "$(lines "$tmp/err")" -gt 1 ]; then
        if sed '$d' "$tmp/err" | grep -qE 'cannot|failed|expected'; then return 1; fi
        tail -n 1 "$tmp/err" > "$tmp/err.last"
        mv "$tmp/err.last" "$tmp/err"
    fi
    [ "$(lines "$tmp/err")" -eq 1 ] || return 1
    grep -q "^$prefix: " "$tmp/err" || return 1
    for w in "$@"; do grep -qF -- "$w" "$tmp/err" || return 1; done
}

# expect STATUS DESCRIPTION WORDS...: $rc is STATUS and $tmp/err one line
# with each word; the line is shown when not.
expect() {
    want=$1
    d=$2
    shift 2
    if [ "$rc" -eq "$want" ] && one_line "$@"; then
        ok "$d"
    else
        fail "$d (status $rc: $(head -c 300 "$tmp/err" | tr '\n' ' '))"
    fi
}

# A directory nobody may write to, and a way to run as someone the
# permissions apply to (root writes anywhere).
ro="$tmp/ro"
mkdir -p "$ro"
echo keep > "$ro/old"
chmod 755 "$tmp"
chmod 555 "$ro"
as_user=""
if [ "$(id -u)" -eq 0 ]; then
    if command -v setpriv > /dev/null 2>&1 &&
       setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$DT" 2>/dev/null &&
       setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$S" 2>/dev/null; then
        as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
    fi
fi

while IFS= read -r line; do
    name=$(printf '%s' "$line" | cut -d'|' -f1)
    prefix=$(printf '%s' "$line" | cut -d'|' -f2)

    # /dev/full as the output file: the write fails, exit 1, one line.
    run_cmd /dev/full -
    expect 1 "$name: -o /dev/full exits 1 with one line naming the file and the reason" \
        /dev/full "write failed" "No space left on device"
    check "$name: -o /dev/full writes nothing beside /dev/full, nothing on stdout" \
        sh -c '[ -z "$(ls /dev/full.* 2>/dev/null)" ] && [ ! -s "$1" ]' _ "$tmp/out"

    # A missing directory: the path cannot be created, exit 2, one line.
    run_cmd "$tmp/no-such-dir/out" -
    expect 2 "$name: a missing directory exits 2, one line naming the path and the reason" \
        "$tmp/no-such-dir/out" "No such file or directory"
    check "$name: a missing directory creates nothing" [ ! -e "$tmp/no-such-dir" ]

    # A read-only directory: exit 2, one line, the old file kept.
    if [ "$(id -u)" -ne 0 ] || [ -n "$as_user" ]; then
        c=$(printf '%s' "$line" | cut -d'|' -f3- | sed "s|OUT|$ro/out|g")
        eval "$as_user $c" > "$tmp/out" 2> "$tmp/err"
        rc=$?
        expect 2 "$name: a read-only directory exits 2, one line naming the path and the reason" \
            "$ro/out" "Permission denied"
        check "$name: a read-only directory is left as it was" \
            sh -c '[ "$(ls "$1")" = old ] && [ "$(cat "$1/old")" = keep ]' _ "$ro"
    else
        echo "skip - outputs: $name: read-only directory (root, and setpriv cannot run as nobody)"
    fi

    # Standard output full or closed: the same command printing there
    # (calibrate prints its progress on stderr and nothing on stdout).
    if [ "$name" = calibrate ]; then
        run_cmd "$tmp/good" closed
        check "calibrate: a closed standard output is no fault (nothing is printed there)" \
            sh -c '[ $1 -eq 0 ] && [ -s "$2/good" ]' _ $rc "$tmp"
        rm -f "$tmp/good"
        continue
    fi
    line_stdout=$(printf '%s' "$line" | sed 's/ -o OUT//; s/ --trace OUT//; s/ --report OUT//; s/ --save-json OUT//')
    saved=$line
    line=$line_stdout
    run_cmd unused /dev/full
    expect 1 "$name: standard output on /dev/full exits 1 with one line and the reason" \
        "standard output" "No space left on device"
    run_cmd unused closed
    expect 1 "$name: a closed standard output exits 1 with one line and the reason" \
        "standard output" "Bad file descriptor"
    line=$saved

    # And when nothing is wrong: exit 0, the file there, no temporary.
    run_cmd "$tmp/good" -
    check "$name: a good path exits 0 and writes the file, no temporary left" \
        sh -c '[ $1 -eq 0 ] && [ -s "$2/good" ] && [ -z "$(find "$2" -name "*.tmp.*")" ]' \
        _ $rc "$tmp"
    rm -f "$tmp/good"
done < "$tmp/cmds"

# --help and --version of every subcommand: to /dev/full or a closed stdout
# they cannot print, exit 1 with one line.
for c in "--help" "--version" "plan --help" "compute --help" "collectives --help" \
         "catalog --help" "calibrate --help"; do
    prefix="dtplan"
    case $c in plan*|compute*|collectives*|catalog*|calibrate*) prefix="dtplan ${c%% *}" ;; esac
    # shellcheck disable=SC2086
    "$DT" $c > /dev/full 2> "$tmp/err"
    rc=$?
    expect 1 "$c to /dev/full exits 1 with one line" "standard output" "No space left on device"
    # shellcheck disable=SC2086
    "$DT" $c 2> "$tmp/err" >&-
    rc=$?
    expect 1 "$c to a closed stdout exits 1 with one line" "standard output" \
        "Bad file descriptor"
done

# ---- catalog import: -o DIR ------------------------------------------------
prefix="dtplan catalog import"
"$DT" catalog import "$SKY" -o /dev/full > "$tmp/out" 2> "$tmp/err"
rc=$?
expect 2 "catalog import -o /dev/full exits 2, one line: not a directory" "/dev/full" \
    "expected a directory"
"$DT" catalog import "$SKY" -o "$tmp/no-such-dir/sub" > "$tmp/out" 2> "$tmp/err"
rc=$?
expect 2 "catalog import into a missing parent exits 2 with one line" "$tmp/no-such-dir/sub" \
    "No such file or directory"
if [ "$(id -u)" -ne 0 ] || [ -n "$as_user" ]; then
    $as_user "$DT" catalog import "$SKY" -o "$ro" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    expect 2 "catalog import into a read-only directory exits 2, one line" \
        "$ro/instances.csv" "Permission denied"
    check "catalog import into a read-only directory writes nothing" \
        sh -c '[ "$(ls "$1")" = old ]' _ "$ro"
fi
"$DT" catalog import "$SKY" -o "$tmp/imported" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "catalog import writes its three files, no temporary" \
    sh -c '[ $1 -eq 0 ] && [ -s "$2/instances.csv" ] && [ -s "$2/gpus.csv" ] &&
           [ -s "$2/models.csv" ] && [ -z "$(find "$2" -name "*.tmp.*")" ]' _ $rc "$tmp/imported"

# ---- two outputs on one file -------------------------------------------------
# Every pair of -o, --trace and --report, and --save-json beside two of them, in both front ends, spelled so that
# only the file system says they are one: ./X, dir/../X, a link, a hard link.
mkdir -p "$tmp/pair/sub"
cd "$tmp/pair" || exit 1
echo "good old" > target
ln -s target link
ln target hard
for front in run plan; do
    if [ $front = run ]; then prefix=dtplan; base="$DT -q"; scen=$S
    else prefix="dtplan plan"; base="$DT plan -q"; scen=$P; fi
    for pair in "-o --trace" "-o --report" "--trace --report" "--trace -o" "--report -o" \
                "--report --trace" "-o --save-json" "--save-json --report"; do
        a=${pair% *}
        b=${pair#* }
        for spell in ./target sub/../target link hard; do
            # shellcheck disable=SC2086
            $base $a target $b $spell "$scen" > out 2> err
            rc=$?
            cp err "$tmp/err"
            expect 2 "$front: $a target $b $spell exits 2 with one line naming both" \
                "$a" "$b" " $spell" "expected a different file for each output"
            check "$front: $a target $b $spell leaves the file as it was, no temporary" \
                sh -c '[ "$(cat target)" = "good old" ] && [ -L link ] &&
                       [ -z "$(find . -name "*.tmp.*")" ] && [ ! -s out ]'
        done
    done
    # An output on the file standard output already goes to.
    for flag in -o --trace --report --save-json; do
        [ $flag = -o ] && continue
        # shellcheck disable=SC2086
        $base $flag stdout.txt "$scen" > stdout.txt 2> err
        rc=$?
        cp err "$tmp/err"
        expect 2 "$front: $flag on the file standard output goes to exits 2 with one line" \
            "$flag: stdout.txt" "standard output"
    done
    # Two outputs on the null device are fine: nothing is kept there.
    # shellcheck disable=SC2086
    $base -o /dev/null --trace /dev/null --report /dev/null "$scen" > out 2> err
    check "$front: every output on /dev/null exits 0, nothing created in /dev" \
        sh -c '[ $1 -eq 0 ] && [ -z "$(ls /dev/null.* 2>/dev/null)" ]' _ $?
done

# ---- all or nothing ---------------------------------------------------------
prefix=dtplan
echo "good old" > keep.txt
"$DT" -q -o keep.txt --trace new-trace.json --report /dev/full "$S" > out 2> err
rc=$?
cp err "$tmp/err"
check "a failed --report keeps -o's old file and creates no --trace, no temporary" \
    sh -c '[ "$(cat keep.txt)" = "good old" ] && [ ! -e new-trace.json ] &&
           [ -z "$(find . -name "*.tmp.*")" ]'
expect 1 "a failed --report exits 1, one line naming it" /dev/full "write failed"

"$DT" -q -o link --trace t2.json "$S" > out 2> err
check "-o through a symbolic link replaces the file it names and keeps the link" \
    sh -c '[ $1 -eq 0 ] && [ -L link ] && [ "$(readlink link)" = target ] &&
           grep -q "cli-tiny" target && [ -s t2.json ]' _ $?

ln -s no-such-file dangling
"$DT" -q -o dangling "$S" > out 2> err
check "-o through a dangling link creates the file it names" \
    sh -c '[ $1 -eq 0 ] && [ -L dangling ] && grep -q cli-tiny no-such-file' _ $?

# ---- scenario paths that are not files --------------------------------------
mkfifo fifo
timeout 20 "$DT" -q fifo > out 2> err
rc=$?
check "a FIFO nobody writes to is read as empty, no hang: exit 2, one line" \
    sh -c '[ $1 -eq 2 ] && [ "$(wc -l < err)" -eq 1 ] &&
           grep -q "^fifo:1:1: document: .*empty document" err' _ $rc
printf '' | "$DT" -q - > out 2> err
check "an empty scenario on stdin names stdin" grep -q "^stdin:1:1: " err
"$DT" -q "$tmp/pair" > out 2> err
check "a directory as the scenario exits 2 with one line" \
    sh -c '[ $1 -eq 2 ] && [ "$(wc -l < err)" -eq 1 ] && grep -q "is a directory" err' _ $?
"$DT" -q --catalog "$S" "$S" > out 2> err
check "--catalog FILE of neither kind says what was expected" \
    sh -c '[ $1 -eq 2 ] && grep -q "expected a catalog directory" err' _ $?
cd / || exit 1
