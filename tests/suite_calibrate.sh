#!/bin/sh
# suite_calibrate.sh - "dtplan calibrate" end to end: flags and their error
# lines, a quick CPU calibration and its profile, --cmd with a small shell
# pipeline, a killed run that leaves the earlier profile intact, --resume
# that skips the points already measured and refuses another machine's or
# other flags' checkpoint, the lock that keeps two runs of one path apart,
# an -o that is a device, FIFO or directory, text flags and --coll-cmd times
# checked as the profile's reader checks them, and a scenario naming a
# profile.
# Prints "ok - ..." / "FAIL - ..." lines for tests/run.sh.  Run from the
# repository root; BUILD defaults to build.  Checks behaviour only, never
# how fast anything ran.
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-calib.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok - calibrate: $1"; }
fail() { echo "FAIL - calibrate: $1"; }
check() { # check DESCRIPTION COMMAND...
    d=$1
    shift
    if "$@"; then ok "$d"; else fail "$d"; fi
}
lines() { wc -l < "$1" | tr -d ' '; }
# json FILE EXPR: print a Perl expression over the document $d (JSON::PP is
# in perl's core, and perl comes with build-essential).
json() {
    perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or exit 1;
        our $d = decode_json(<$f>); my $v = eval $ARGV[1]; print defined $v ? "$v\n" : "undef\n"' \
        "$1" "$2" 2>/dev/null
}
pts='@{$d->{cpu}{pipelines}[0]{points}}'


if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi
if ! perl -MJSON::PP -e 1 2>/dev/null; then
    fail "perl with JSON::PP is needed to read profiles"
    exit 0
fi
export SOURCE_DATE_EPOCH=86400
unset DTPLAN_CALIBRATE_KILL_AFTER

# ---- flags ------------------------------------------------------------------
"$DT" calibrate --help > "$tmp/out" 2> "$tmp/err"
check "--help exits 0 and lists --resume" [ $? -eq 0 -a ! -s "$tmp/err" ]
check "--help mentions --cmd and --resume" grep -q -- '--resume' "$tmp/out"

for args in "--bogus -o $tmp/x.json" "--cpu" "--seed x -o $tmp/x.json" "--cmd" \
            "--cpu=1 -o $tmp/x.json" "stray -o $tmp/x.json"; do
    # shellcheck disable=SC2086
    "$DT" calibrate $args > "$tmp/out" 2> "$tmp/err"
    rc=$?
    check "\"$args\" exits 2 with one line on stderr" \
        [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 -a ! -s "$tmp/out" ]
    check "\"$args\": the line names what was expected" grep -q 'dtplan calibrate: .*expected' "$tmp/err"
done
check "no output file was created by bad flags" [ ! -e "$tmp/x.json" ]
"$DT" calibrate --cpu -o "$tmp/no/such/dir/p.json" > /dev/null 2> "$tmp/err"
rc=$?
check "an unwritable -o exits 2 with one line before measuring" \
    [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 ]

# ---- a quick CPU calibration -------------------------------------------------
"$DT" calibrate --cpu --quick --instance test.box -o "$tmp/p.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--cpu --quick exits 0" [ $rc -eq 0 ]
check "nothing on stdout" [ ! -s "$tmp/out" ]
check "stderr (not a terminal) has plain lines, no bar" \
    sh -c "grep -q 'cpu: running' '$tmp/err' && ! grep -q '\[#' '$tmp/err'"
check "the profile is written and the checkpoint file removed" \
    [ -s "$tmp/p.json" -a ! -e "$tmp/p.json.partial" ]
check "schema_version 1, complete" \
    [ "$(json "$tmp/p.json" '"$d->{schema_version} " . ($d->{complete} ? "true" : "false")')" = "1 true" ]
check "the date comes from SOURCE_DATE_EPOCH" \
    [ "$(json "$tmp/p.json" '$d->{date}')" = "1970-01-02T00:00:00Z" ]
check "the instance is named" [ "$(json "$tmp/p.json" '$d->{instance}')" = "test.box" ]
check "host, CPU model and vCPUs are recorded" \
    [ "$(json "$tmp/p.json" '$d->{host} ne "" && $d->{cpu_model} ne "" && $d->{vcpus} >= 1 ? "yes" : "no"')" = yes ]
cores=$(json "$tmp/p.json" '$d->{vcpus}')
check "builtin-image measured at 1..2N workers" \
    [ "$(json "$tmp/p.json" "my @w = sort { \$a <=> \$b } map { \$_->{workers} } $pts; \$w[-1]")" = $((2 * cores)) ]
check "every point has a positive rate" \
    [ "$(json "$tmp/p.json" "(grep { !(\$_->{samples_per_s} > 0 && \$_->{time_s} > 0) } $pts) ? 'no' : 'yes'")" = yes ]
check "the fit has lambda, intervals and a quality" \
    [ "$(json "$tmp/p.json" 'join ",", sort grep { /^(lambda_samples_per_s|ci95|quality|r2)$/ } keys %{$d->{cpu}{pipelines}[0]{fit}}')" = "ci95,lambda_samples_per_s,quality,r2" ]
q=$(json "$tmp/p.json" '$d->{cpu}{pipelines}[0]{fit}{quality}')
if [ "$q" = good ]; then
    check "a good fit gives no warning" sh -c "! grep -q 'warning' '$tmp/err'"
else
    check "a $q fit says so on stderr" grep -q "USL fit $q" "$tmp/err"
fi
check "parts without CUDA are skipped, not failed" \
    [ "$(json "$tmp/p.json" '$d->{parts}{cpu}{status}')" = ok ]
cat > "$tmp/s.yaml" <<YAML
profile: p.json
catalog:
  instances:
    - {name: test.box, vcpus: 2, network_gbps: 10, price_usd_h: 0.1}
workload: {model: mnist-cnn, batch_per_gpu: 64}
input: {cpu_s_per_sample: 0.001, prep_bytes: 3136}
clusters:
  - name: v100-plus-box
    groups:
      - {role: train, instance: p3.2xlarge, count: 1}
      - {role: data, instance: test.box, count: 1}
YAML
"$DT" -q "$tmp/s.yaml" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "a scenario naming the new profile plans with it" \
    sh -c "[ $rc -eq 0 ] && grep -q 'Measured: v100-plus-box: test.box ($tmp/p.json): cpu_speed' '$tmp/out'"
if [ "$q" = good ]; then
    check "a speed from a good fit is not flagged" sh -c "! grep -q '(poor fit)' '$tmp/out'"
else
    check "a speed from a $q fit is flagged (poor fit)" grep -q 'x reference core (poor fit)' "$tmp/out"
fi

"$DT" calibrate --gpu -o "$tmp/g.json" > /dev/null 2> "$tmp/err"
rc=$?
check "--gpu without a device or CUDA build: exit 0, one skipped line" \
    sh -c "[ $rc -eq 0 ] && grep -q 'gpu: skipped' '$tmp/err'"
check "--gpu alone measures no CPU pipeline" \
    [ "$(json "$tmp/g.json" 'scalar(@{$d->{cpu}{pipelines}}) . " " . scalar(@{$d->{gpu}{gemm}})')" = "0 0" ]

# ---- --cmd --------------------------------------------------------------------
cat > "$tmp/pipe.sh" <<'SH'
# a user's pipeline: N samples through DTPLAN_WORKERS parallel shells
echo "$DTPLAN_WORKERS $DTPLAN_SAMPLES" >> "$LOG"
i=0
while [ $i -lt "$DTPLAN_WORKERS" ]; do
    (n=0; while [ $n -lt "$DTPLAN_SAMPLES" ]; do n=$((n + DTPLAN_WORKERS)); echo x | od > /dev/null; done) &
    i=$((i + 1))
done
wait
SH
LOG="$tmp/cmd.log" "$DT" calibrate --quick --cmd "LOG=$tmp/cmd.log sh $tmp/pipe.sh" -o "$tmp/c.json" \
    > /dev/null 2> "$tmp/err"
rc=$?
check "--cmd exits 0" [ $rc -eq 0 ]
check "--cmd ran the command at 1..2N workers with DTPLAN_SAMPLES=16" \
    [ "$(cut -d' ' -f1 "$tmp/cmd.log" | tr '\n' ' ')" = "$(seq 1 $((2 * cores)) | tr '\n' ' ')" -a \
      "$(cut -d' ' -f2 "$tmp/cmd.log" | sort -u)" = 16 ]
check "--cmd adds a cmd pipeline with the command and a fit" \
    [ "$(json "$tmp/c.json" 'join(",", map { $_->{name} } @{$d->{cpu}{pipelines}}) . (exists $d->{cpu}{pipelines}[1]{fit} ? " fit" : "")')" = "builtin-image,cmd fit" ]
"$DT" calibrate --quick --cmd "exit 3" -o "$tmp/f.json" > /dev/null 2> "$tmp/err"
rc=$?
check "a failing --cmd exits 1 and names its status" sh -c "[ $rc -eq 1 ] && grep -q 'status 3' '$tmp/err'"

# ---- --coll-cmd ---------------------------------------------------------------
# a user's collective: 20 us + 10 ns per byte, after a line of chatter; the
# JSON form at sizes up to 64 KiB, a bare number above
cat > "$tmp/coll.sh" <<'SH'
echo "$DTPLAN_BYTES $DTPLAN_ITERS $DTPLAN_RANKS" >> "$LOG"
echo "starting $DTPLAN_RANKS ranks"
if [ "$DTPLAN_BYTES" -le 65536 ]; then
    awk -v b="$DTPLAN_BYTES" 'BEGIN { printf "{\"ranks\": 4, \"time_s\": %.9g}\n", 2e-5 + b * 1e-8 }'
else
    awk -v b="$DTPLAN_BYTES" 'BEGIN { printf "%.9g\n", 2e-5 + b * 1e-8 }'
fi
SH
: > "$tmp/coll.log"
LOG="$tmp/coll.log" "$DT" calibrate --coll-cmd "LOG=$tmp/coll.log sh $tmp/coll.sh" --coll-ranks 4 \
    --minbytes 1K --maxbytes 1M --stepfactor 4 -o "$tmp/cc.json" > /dev/null 2> "$tmp/err"
rc=$?
check "--coll-cmd exits 0" [ $rc -eq 0 ]
if command -v mpirun > /dev/null 2>&1; then
    timeout 300 mpirun --allow-run-as-root --oversubscribe --bind-to none -np 2 "$DT" calibrate --mpi \
        --quick --minbytes 1K --maxbytes 64K --stepfactor 8 -o "$tmp/mp.json" > /dev/null 2> "$tmp/mperr"
    check "--mpi, not a terminal: an estimate before each collective's sweep, then a line a size" \
        [ "$(grep -c '^dtplan calibrate: mpi: [a-z_]* over 3 sizes, about [0-9.:]* s* *to measure$' "$tmp/mperr")" = 3 -a "$(grep -c '^dtplan calibrate: mpi: mpi [a-z_]* [0-9]* B took ' "$tmp/mperr")" = 9 ]
fi
check "not a terminal: a line a message size, with its size, the time it took and what is left" \
    [ "$(grep -c '^dtplan calibrate: coll-cmd: cmd allreduce [0-9]* B took [0-9.]* s; [0-9]*% done, about [0-9.:]* s* *left$' "$tmp/err")" = 6 ]
check "--coll-cmd ran the command at 1K..1M by x4 with DTPLAN_ITERS and DTPLAN_RANKS" \
    [ "$(tr '\n' ' ' < "$tmp/coll.log")" = "1024 10 4 4096 10 4 16384 10 4 65536 10 4 262144 10 4 1048576 10 4 " ]
check "--coll-cmd alone runs no other part" \
    [ "$(json "$tmp/cc.json" 'scalar(@{$d->{cpu}{pipelines}}) . " " . join(",", sort keys %{$d->{parts}})')" = "0 coll-cmd" ]
check "--coll-cmd records a cmd allreduce on 4 ranks with nccl-tests' bus factor" \
    [ "$(json "$tmp/cc.json" 'my $c = $d->{collectives}[0]; "$c->{transport} $c->{name} $c->{ranks} $c->{hosts} $c->{bus_factor}"')" = "cmd allreduce 4 4 1.5" ]
check "--coll-cmd's fit recovers alpha 20 us and beta 10 ns/B" \
    [ "$(json "$tmp/cc.json" 'my $c = $d->{collectives}[0]; sprintf("%.1f %.2f", $c->{alpha_s} * 1e6, $c->{beta_s_per_byte} * 1e9)')" = "20.0 10.00" ]
"$DT" calibrate --coll-cmd "echo no time here" --quick -o "$tmp/cf.json" > /dev/null 2> "$tmp/err"
rc=$?
check "a --coll-cmd that prints no time exits 1 and says what it expected" \
    sh -c "[ $rc -eq 1 ] && grep -q 'expected the command.s last line to be the seconds of one operation' '$tmp/err'"
check "... and leaves no collective without points in the profile" \
    [ "$(json "$tmp/cf.json" 'scalar(@{$d->{collectives}})')" = 0 ]
"$DT" calibrate --coll-cmd "exit 4" --quick -o "$tmp/cf.json" > /dev/null 2> "$tmp/err"
rc=$?
check "a failing --coll-cmd exits 1 and names its status" sh -c "[ $rc -eq 1 ] && grep -q 'status 4' '$tmp/err'"
for args in "--coll-name max --coll-cmd true" "--coll-ranks 1 --coll-cmd true" "--coll-hosts 2" \
            "--maxbytes 1Q --coll-cmd true" "--minbytes 1M --maxbytes 1K --coll-cmd true" \
            "--stepfactor 1 --coll-cmd true"; do
    # shellcheck disable=SC2086
    "$DT" calibrate $args -o "$tmp/x.json" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    check "\"$args\" exits 2 with one line naming what was expected" \
        sh -c "[ $rc -eq 2 ] && [ \"\$(wc -l < '$tmp/err')\" -eq 1 ] && grep -q 'expected' '$tmp/err'"
done
# a scenario naming the profile: the measured link replaces the nominal one
cp "$tmp/cc.json" "$tmp/ccp.json"
perl -MJSON::PP -i -0pe '$d = decode_json($_); $d->{instance} = "emu.host"; $_ = JSON::PP->new->encode($d)' "$tmp/ccp.json"
cat > "$tmp/cc.yaml" <<YAML
catalog:
  instances:
    - {name: emu.host, vcpus: 2, network_gbps: 1, price_usd_h: 1.0, source: "test", profile: "$tmp/ccp.json"}
workload: {model: resnet18, batch_per_gpu: 16}
input: {cpu_s_per_sample: 0.001}
gradients: {strategy: ring}
clusters:
  - {name: two, groups: [{role: train, instance: emu.host, count: 2}]}
YAML
"$DT" -q "$tmp/cc.yaml" > "$tmp/cc.txt" 2>&1
rc=$?
check "a scenario naming a --coll-cmd profile plans (exit 0)" [ $rc -eq 0 ]
check "its table names the link the command measured (1.5 / 10 ns per byte)" grep -q "emu.host ($tmp/ccp.json): nic_gbytes_s 0.15 GB/s" "$tmp/cc.txt"

# ---- killed, then resumed -----------------------------------------------------
cp "$tmp/p.json" "$tmp/k.json"
cp "$tmp/k.json" "$tmp/k.orig"
# Checkpoint 1 is the empty document, 2 and 3 the first two points.
DTPLAN_CALIBRATE_KILL_AFTER=3 "$DT" calibrate --cpu --quick -o "$tmp/k.json" > /dev/null 2>&1
rc=$?
check "the run was killed after its third checkpoint (status 137)" [ $rc -eq 137 ]
check "a killed calibration leaves the earlier profile byte for byte" cmp -s "$tmp/k.json" "$tmp/k.orig"
check "its checkpoint holds the two points measured, marked incomplete" \
    [ "$(json "$tmp/k.json.partial" "scalar($pts) . (\$d->{complete} ? ' true' : ' false')")" = "2 false" ]
check "no temporary file is left" sh -c "! ls '$tmp' | grep -q 'tmp\\.'"
cp "$tmp/k.json.partial" "$tmp/k.saved"
"$DT" calibrate --cpu --quick --resume -o "$tmp/k.json" > /dev/null 2> "$tmp/err"
rc=$?
check "--resume exits 0 and says where it continues from" \
    sh -c "[ $rc -eq 0 ] && grep -q 'continuing from $tmp/k.json.partial' '$tmp/err'"
check "--resume reuses the 2 measured points" grep -q '2 reused' "$tmp/err"
first2=$(json "$tmp/k.json" "JSON::PP->new->canonical->encode([($pts)[0, 1]])")
check "the reused points are copied, not measured again" \
    [ "${first2#\[\{\"}" != "$first2" -a \
      "$first2" = "$(json "$tmp/k.saved" "JSON::PP->new->canonical->encode([$pts])")" ]
check "the resumed profile is complete with all 2N points" \
    [ "$(json "$tmp/k.json" "scalar($pts) . (\$d->{complete} ? ' true' : ' false')")" = "$((2 * cores)) true" ]
check "the checkpoint file is gone after the resumed run" [ ! -e "$tmp/k.json.partial" ]

printf '{"schema_version": 1,\n "host": 7}\n' > "$tmp/bad.json.partial"
"$DT" calibrate --cpu --quick --resume -o "$tmp/bad.json" > /dev/null 2> "$tmp/err"
rc=$?
check "--resume from a bad profile exits 2 with its file:line:col line" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = "$tmp/bad.json.partial:2:10: host: expected a host name, found 7" ]

# ---- --resume refuses a checkpoint of another machine or other flags ----------
# A --coll-cmd checkpoint (killed after its first point), then edited.
rm -f "$tmp/m.json" "$tmp/m.json.partial"
DTPLAN_CALIBRATE_KILL_AFTER=2 "$DT" calibrate --coll-cmd "echo 0.001" --quick --instance test.box \
    -o "$tmp/m.json" > /dev/null 2>&1
rc=$?
check "a killed run's checkpoint records its seed, --quick and the parts asked for" \
    [ $rc -eq 137 -a "$(json "$tmp/m.json.partial" '"$d->{seed} " . ($d->{quick} ? "true" : "false") . " " . join(",", @{$d->{parts_requested}})')" = "1 true coll-cmd" ]
check "a killed run leaves its lock file (the lock itself died with it)" [ -e "$tmp/m.json.lock" ]
cp "$tmp/m.json.partial" "$tmp/m.saved"
host=$(json "$tmp/m.saved" '$d->{host}')
# edit FIELD JSON: the saved checkpoint with FIELD set to JSON, or removed when JSON is "-"
edit() {
    perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or exit 1; my $d = decode_json(<$f>);
        if ($ARGV[2] eq "-") { delete $d->{$ARGV[1]} }
        else { $d->{$ARGV[1]} = JSON::PP->new->allow_nonref->decode($ARGV[2]) }
        print JSON::PP->new->encode($d)' "$tmp/m.saved" "$1" "$2" > "$tmp/m.json.partial"
}
# refused WHAT SAYS FLAGS...: --resume with FLAGS exits 2 with the one line
# "...: --resume: CHECKPOINT SAYS...; remove it or run without --resume",
# measures nothing and keeps the checkpoint.
refused() {
    what=$1 says=$2
    shift 2
    cp "$tmp/m.json.partial" "$tmp/m.before"
    "$DT" calibrate --coll-cmd "echo 0.001" "$@" --resume -o "$tmp/m.json" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    case $(cat "$tmp/err") in
    "dtplan calibrate: --resume: $tmp/m.json.partial $says"*"; remove it or run without --resume") said=yes ;;
    *) said=no ;;
    esac
    check "--resume, $what: exit 2, one line naming the field and both values" \
        [ $rc -eq 2 -a $said = yes -a "$(lines "$tmp/err")" = 1 ]
    check "--resume, $what: nothing written, the checkpoint kept" \
        sh -c "[ ! -e '$tmp/m.json' ] && cmp -s '$tmp/m.json.partial' '$tmp/m.before'"
}
edit host '"other-machine"'
refused "another host" "was measured with host \"other-machine\", this run has \"$host\"" --quick --instance test.box
edit cpu_model '"Other CPU 9000"'
refused "another CPU model" 'was measured with CPU model "Other CPU 9000", this run has ' --quick --instance test.box
edit vcpus 64
refused "another core count" "was measured with vcpus 64, this run has $cores" --quick --instance test.box
edit seed -
refused "a checkpoint that records no seed (an older dtplan's)" 'does not record its --seed, this run has 1' --quick --instance test.box
edit parts_requested -
refused "a checkpoint that records no parts" 'does not record its parts, this run has ["coll-cmd"]' --quick --instance test.box
cp "$tmp/m.saved" "$tmp/m.json.partial"
refused "another --seed" 'was measured with --seed 1, this run has 2' --quick --instance test.box --seed 2
refused "another --instance" 'was measured with --instance "test.box", this run has "other.box"' --quick --instance other.box
refused "no --instance" 'was measured with --instance "test.box", this run has none' --quick
refused "without --quick" 'was measured with --quick true, this run has false' --instance test.box
refused "other parts" 'was measured with parts ["coll-cmd"], this run has ["cpu","coll-cmd"]' --quick --instance test.box --cpu
"$DT" calibrate --coll-cmd "echo 0.002" --quick --instance test.box --resume -o "$tmp/m.json" > /dev/null 2> "$tmp/err"
rc=$?
check "--resume of the same machine and flags goes on (exit 0) past the stale lock file" \
    sh -c "[ $rc -eq 0 ] && grep -q 'continuing from $tmp/m.json.partial' '$tmp/err'"
check "... and removes its lock and checkpoint at the end" [ ! -e "$tmp/m.json.lock" -a ! -e "$tmp/m.json.partial" ]
check "--resume with another --coll-cmd measures every size again (reuses no time of the other command)" \
    [ "$(json "$tmp/m.json" 'join ",", map { $_->{time_s} } @{$d->{collectives}[0]{points}}')" = "0.002,0.002,0.002,0.002" ]
cp "$tmp/m.saved" "$tmp/m.json.partial"
perl -MJSON::PP -i -0pe '$d = decode_json($_); $d->{collectives}[0]{points}[0]{time_s} = 1e308; $_ = JSON::PP->new->encode($d)' "$tmp/m.json.partial"
"$DT" calibrate --coll-cmd "echo 0.001" --quick --instance test.box --resume -o "$tmp/m.json" > /dev/null 2> "$tmp/err"
rc=$?
check "the reader's line for a time out of range states the bounds" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l < '$tmp/err') -eq 1 ] && grep -q 'collectives\\[0\\]\\.points\\[0\\]\\.time_s: expected a time in seconds from 1e-12 to 1e9, found 1e+308\$' '$tmp/err'"

# ---- one calibration of a path at a time --------------------------------------
# The first run's command waits (at most 30 s) for the test to let it go.
"$DT" calibrate --coll-cmd "touch '$tmp/started'; i=0; while [ ! -e '$tmp/go' ] && [ \$i -lt 300 ]; do sleep 0.1; i=\$((i + 1)); done; echo 0.001" \
    --quick --instance test.box -o "$tmp/l.json" > /dev/null 2> "$tmp/l.err" &
first=$!
i=0
while [ ! -e "$tmp/started" ] && [ $i -lt 300 ]; do
    sleep 0.1
    i=$((i + 1))
done
check "a running calibration holds PROFILE.json.lock, with its pid in it" \
    [ -e "$tmp/started" -a "$(cat "$tmp/l.json.lock" 2>/dev/null)" = "$first" ]
cp "$tmp/l.json.partial" "$tmp/l.before" 2>/dev/null
"$DT" calibrate --coll-cmd "echo 0.001" --quick --instance test.box -o "$tmp/l.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "a second calibration of the same -o exits 2 with one line naming the lock and the first's pid" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = "dtplan calibrate: -o: $tmp/l.json is being calibrated by process $first (it holds $tmp/l.json.lock); wait for it to end or choose another -o" ]
check "... and touches neither the first's checkpoint nor the profile" \
    sh -c "cmp -s '$tmp/l.json.partial' '$tmp/l.before' && [ ! -e '$tmp/l.json' ]"
"$DT" calibrate --coll-cmd "echo 0.001" --quick --instance test.box --resume -o "$tmp/l.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "... even with --resume" [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 ]
touch "$tmp/go"
wait $first
rc=$?
check "the first calibration ends normally and removes its lock" \
    [ $rc -eq 0 -a -s "$tmp/l.json" -a ! -e "$tmp/l.json.lock" -a ! -e "$tmp/l.json.partial" ]
echo 999999 > "$tmp/s.json.lock"
"$DT" calibrate --coll-cmd "echo 0.001" --quick --instance test.box -o "$tmp/s.json" > /dev/null 2> "$tmp/err"
rc=$?
check "a lock file no process holds does not block (exit 0, the file removed)" \
    [ $rc -eq 0 -a -s "$tmp/s.json" -a ! -e "$tmp/s.json.lock" ]

# ---- an -o that is not a regular file is written directly ---------------------
if [ -c /dev/full ]; then
    "$DT" calibrate --coll-cmd "echo 0.001" --quick --instance test.box -o /dev/full > /dev/null 2> "$tmp/err"
    rc=$?
    check "-o /dev/full: exit 1 with 'write failed: No space left on device', no /dev/full.partial" \
        [ $rc -eq 1 -a "$(grep -cFx 'dtplan calibrate: /dev/full: write failed: No space left on device' "$tmp/err")" = 1 -a ! -e /dev/full.partial -a ! -e /dev/full.lock ]
fi
"$DT" calibrate --coll-cmd "echo 0.001" --quick --instance test.box -o /dev/null > /dev/null 2> "$tmp/err"
rc=$?
check "-o /dev/null: exit 0, no /dev/null.partial" [ $rc -eq 0 -a ! -e /dev/null.partial ]
mkfifo "$tmp/fifo"
# The reader's timeout only keeps a writer that never opens the FIFO from
# hanging the suite; it is long, so that a loaded machine (two suites at
# once) does not cut the run off mid-profile.
timeout 300 cat "$tmp/fifo" > "$tmp/fifo.out" &
reader=$!
# A run that would be killed after its first checkpoint, had it one.
DTPLAN_CALIBRATE_KILL_AFTER=1 "$DT" calibrate --coll-cmd "echo 0.001" --quick --instance test.box \
    -o "$tmp/fifo" > /dev/null 2> "$tmp/err"
rc=$?
wait $reader
check "-o FIFO: no checkpoint or lock file, the whole profile written into it (exit 0)" \
    [ $rc -eq 0 -a ! -e "$tmp/fifo.partial" -a ! -e "$tmp/fifo.lock" -a \
      "$(json "$tmp/fifo.out" '$d->{complete} ? "true" : "false"')" = true ]
"$DT" calibrate --coll-cmd "echo 0.001" --quick --resume -o /dev/null > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--resume -o /dev/null: exit 2, one line" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = "dtplan calibrate: --resume: /dev/null is not a regular file, so no earlier run of it was kept; run without --resume" ]
mkdir "$tmp/dir"
"$DT" calibrate --coll-cmd "echo 0.001" --quick -o "$tmp/dir" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "-o DIRECTORY: exit 2, one line, nothing created beside it" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = "dtplan calibrate: -o: expected a profile file, found the directory $tmp/dir" -a \
      ! -e "$tmp/dir.partial" -a ! -e "$tmp/dir.lock" ]

# ---- text flags the profile records are checked as its reader checks them -----
esc=$(printf 'a\033b')
"$DT" calibrate --coll-cmd "echo 0.001" --quick --instance "$esc" -o "$tmp/t.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--instance with a control character: exit 2 at once, one line, no profile" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = 'dtplan calibrate: --instance: expected an instance type name of 1 to 63 bytes of printable UTF-8, found "a\x1bb"' -a ! -e "$tmp/t.json" -a ! -e "$tmp/t.json.partial" ]
"$DT" calibrate --coll-cmd "echo 0.001" --quick --instance "$(printf 'a\377b')" -o "$tmp/t.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--instance that is not UTF-8: exit 2, one line" [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 -a ! -e "$tmp/t.json" ]
"$DT" calibrate --quick --cmd "$(printf 'true\ntrue')" -o "$tmp/t.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--cmd on two lines: exit 2, one line" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = 'dtplan calibrate: --cmd: expected a shell command on one line of printable UTF-8, found "true\x0atrue"' -a ! -e "$tmp/t.json" ]
"$DT" calibrate --quick --coll-cmd "echo 0.001 $esc" -o "$tmp/t.json" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--coll-cmd with a control character: exit 2, one line" [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 -a ! -e "$tmp/t.json" ]

# ---- a --coll-cmd time the profile cannot hold ---------------------------------
for t in 1e308 1e-15; do
    "$DT" calibrate --coll-cmd "echo $t" --quick -o "$tmp/big.json" > /dev/null 2> "$tmp/err"
    rc=$?
    check "--coll-cmd printing $t: exit 1, one error line naming the command, the bounds and the value" \
        [ $rc -eq 1 -a "$(grep -c 'error' "$tmp/err")" = 1 -a \
          "$(grep -cF "dtplan calibrate: coll-cmd: error (--coll-cmd \"echo $t\": expected a time in seconds from 1e-12 to 1e9, found $(printf '%g' "$t") (DTPLAN_BYTES=65536))" "$tmp/err")" = 1 ]
    "$DT" calibrate --coll-cmd "echo $t" --quick --resume -o "$tmp/big.json" > /dev/null 2> "$tmp/err"
    rc=$?
    check "... and the profile it wrote is one its reader takes (--resume reads it)" \
        sh -c "[ $rc -eq 1 ] && grep -q 'continuing from $tmp/big.json' '$tmp/err'"
done

# ---- a scenario naming a profile ----------------------------------------------
"$DT" -q tests/data/profiles/without_profile.yaml > "$tmp/nominal.txt" 2>&1
"$DT" -q --json tests/data/profiles/shared_processor.yaml > "$tmp/sh.json" 2>&1
sed '/^profile:/d' tests/data/profiles/shared_processor.yaml > "$tmp/nosh.yaml"
"$DT" -q --json "$tmp/nosh.yaml" > "$tmp/nosh.json" 2>&1
check "a profile gives its vCPU speed to another type of the same processor, with a note" \
    [ "$(grep -c 'p3.8xlarge: vCPU speed from the profile of p3.2xlarge (the same processor, Intel Xeon E5-2686 v4)' "$tmp/sh.json")" -ge 1 -a "$(grep -m1 '"mean"' "$tmp/sh.json")" != "$(grep -m1 '"mean"' "$tmp/nosh.json")" ]
"$DT" -q tests/data/profiles/with_profile.yaml > "$tmp/measured.txt" 2>&1
rc=$?
check "a scenario naming profiles plans (exit 0)" [ $rc -eq 0 ]
check "the measured numbers change the prediction" sh -c \
    "! cmp -s '$tmp/nominal.txt' '$tmp/measured.txt'"
check "the table names the measured numbers and their profile" \
    grep -q 'Measured: one-v100: p3.2xlarge (tests/data/profiles/p3_2xlarge.json): cpu_speed 2 x reference core, gemm_fp32_tflops 10 TFLOP/s' "$tmp/measured.txt"
check "without a profile nothing is said to be measured" sh -c "! grep -q Measured '$tmp/nominal.txt'"

# ---- a catalog naming a profile (instances.csv's optional profile column) -----
mkdir -p "$tmp/cat"
cp catalog/gpus.csv catalog/models.csv "$tmp/cat/"
cp tests/data/profiles/p3_2xlarge.json "$tmp/cat/p3.json"
awk -F, '{ sub(/\r$/, "") } NR == 1 { print $0 ",profile"; next }
         $2 == "p3.2xlarge" { print $0 ",p3.json"; next } { print $0 "," }' \
    catalog/instances.csv > "$tmp/cat/instances.csv"
"$DT" -q --catalog "$tmp/cat" tests/data/profiles/without_profile.yaml > "$tmp/catprof.txt" 2>&1
rc=$?
check "a catalog row naming a profile plans (exit 0)" [ $rc -eq 0 ]
check "the catalog's profile is applied and named" \
    grep -q "Measured: one-v100: p3.2xlarge ($tmp/cat/p3.json): cpu_speed 2 x reference core, gemm_fp32_tflops 10 TFLOP/s" "$tmp/catprof.txt"
printf '{"schema_version": 1,\n "cpu": 7}\n' > "$tmp/cat/p3.json"
"$DT" -q --catalog "$tmp/cat" tests/data/profiles/without_profile.yaml > "$tmp/catbad.txt" 2>&1
rc=$?
check "a bad profile named by the catalog: exit 2, one line naming the profile file" \
    sh -c "[ $rc -eq 2 ] && [ \$(wc -l < '$tmp/catbad.txt') -eq 1 ] && grep -q '^$tmp/cat/p3.json:' '$tmp/catbad.txt'"
"$DT" -q --json tests/data/profiles/with_profile.yaml > "$tmp/m.json" 2>/dev/null
check "--json lists the measured numbers per cluster" \
    [ "$(json "$tmp/m.json" 'join ";", map { "$_->{instance},$_->{what},$_->{value}" } @{$d->{clusters}[1]{measured}}')" = \
      "p3.2xlarge,cpu_speed,2;p3.2xlarge,gemm_fp32_tflops,10;lab-box,cpu_speed,1.53846;lab-box,nic_gbytes_s,1;lab-box,net_alpha_us,50;lab-box,not_used," ]
check "a profile's collective that gives nothing says so, once, in the Measured: line" \
    sh -c "'$DT' -q tests/data/profiles/with_profile.yaml 2>/dev/null | grep -c 'net_alpha_us 50 us, not used: mpi allreduce, 4 ranks: a poor fit' | grep -qx 1"
"$DT" -q --json tests/data/profiles/without_profile.yaml > "$tmp/n.json" 2>/dev/null
check "--json without a profile has no measured list" \
    [ "$(json "$tmp/n.json" '(grep { exists $_->{measured} } @{$d->{clusters}}) ? "yes" : "no"')" = no ]
# ---- a new user's snags: --mpi as root, an interrupted run -------------------
"$DT" calibrate --mpi --quick -o "$tmp/m.json" > /dev/null 2> "$tmp/err"
if [ "$(id -u)" -eq 0 ]; then
    check "--mpi without mpirun, as root: says how mpirun runs as root" \
        grep -q 'as root: mpirun --allow-run-as-root, or OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1' "$tmp/err"
else
    check "--mpi without mpirun, not root: no word of root" \
        sh -c 'grep -q "run under mpirun)" "$1" && ! grep -q allow-run-as-root "$1"' _ "$tmp/err"
fi
# SIGINT reset to its default (a shell starts a background job ignoring it)
rm -f "$tmp/i.json"*
perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' "$DT" calibrate --cpu -o "$tmp/i.json" \
    > /dev/null 2> "$tmp/ierr" &
ipid=$!
n=0
while [ $n -lt 200 ] && ! grep -q ' took ' "$tmp/ierr"; do sleep 0.1; n=$((n + 1)); done
kill -INT $ipid
wait $ipid
irc=$?
check "an interrupted calibration ends by SIGINT (status 130)" [ $irc -eq 130 ]
check "its last line says how to resume" \
    [ "$(tail -n 1 "$tmp/ierr")" = "dtplan calibrate: interrupted: run the same command with --resume to continue from $tmp/i.json.partial" ]
DTPLAN_CALIBRATE_KILL_AFTER=1 "$DT" calibrate --cpu --resume -o "$tmp/i.json" > /dev/null 2> "$tmp/ierr2"
check "and the same command with --resume continues from it" \
    grep -q "^dtplan calibrate: --resume: continuing from $tmp/i.json.partial" "$tmp/ierr2"
# ---- the GPU measurements kept in results/ -----------------------------------
# The profiles measured on lent GPU machines are valid profiles: a scenario
# naming one carries its bf16 GEMM rate (the best of its sweep) into the
# clusters of the instance type it names: the H200's (859 TFLOP/s) into
# p5en.48xlarge's, the H100's (a fifth loan, 880 at 4,096) into p5.48xlarge's.
for pr in "p5en-h200-gpu H200 8x-p5en:859,64x-p5en:859" "p5-h100-gpu H100 8x-p5:880,64x-p5:880"; do
    set -- $pr
    sed -e 's|^clusters:|profile: '"$PWD"'/results/gpu-profiles/'"$1"'.json\nclusters:|' \
        scenarios/llm-70b-3d.yaml > "$tmp/$2.yaml"
    "$DT" -q --json "$tmp/$2.yaml" > "$tmp/$2.json" 2> "$tmp/err"
    check "the $2 profile in results/ loads, and carries its bf16 GEMM rate into its type's clusters ($3)" \
        [ "$(json "$tmp/$2.json" 'join ",", map { my $c = $_; map { sprintf "%s:%.0f", $c->{name}, $_->{value} } grep { $_->{what} =~ /gemm/ } @{$c->{measured} // []} } @{$d->{clusters}}')" = "$3" ]
done
# The Llama 3 8B passes measured on lent GPUs (validate/hf_llama_pass.py: an H200, 32 and 16
# layers, and an H100 SXM, 16 layers), against dtplan's compute model from the catalog alone:
# within the band it states for a transformer on Hopper in 16 bits (8.4%, planner/band.c).
# Eager kernels and cuDNN attention, as the pass ran (PyTorch 2.11's
# scaled_dot_product_attention picks cuDNN there: h200-attention.jsonl).  A pass of fewer
# layers is compared with a catalog whose llama3-8b has that many.
mkdir -p "$tmp/cat"
cp catalog/*.csv "$tmp/cat/"
for f in results/gpu-profiles/h200-llama3-8b-pass.jsonl results/gpu-profiles/h100-llama3-8b-pass.jsonl; do
    while read -r line; do
        gpu=$(echo "$line" | sed -n 's/.*"gpu": "NVIDIA \(H[0-9]*\).*/\1/p')
        seq=$(echo "$line" | sed -n 's/.*"seq": \([0-9]*\).*/\1/p')
        b=$(echo "$line" | sed -n 's/.*"batch": \([0-9]*\).*/\1/p')
        l=$(echo "$line" | sed -n 's/.*"layers": \([0-9]*\).*/\1/p')
        t=$(echo "$line" | sed -n 's/.*"pass_s": \([0-9.]*\).*/\1/p')
        perl -MText::ParseWords -e '
            my ($src, $dst, $layers) = @ARGV;
            open my $in, "<", $src or die; my @rows = <$in>; close $in;
            my @head = split /,/, $rows[0]; chomp @head;
            my ($col) = grep { $head[$_] eq "layers" } 0 .. $#head;
            for (@rows) {
                next unless /^llama3-8b,/;
                my @f = parse_line(",", 1, $_);
                $f[$col] = $layers;
                $_ = join(",", @f);
            }
            open my $out, ">", $dst or die; print $out @rows; close $out;' \
            catalog/models.csv "$tmp/cat/models.csv" "$l"
        p=$("$DT" compute --catalog "$tmp/cat" --model llama3-8b --gpu "$gpu" --precision bf16 \
            --batch "$b" --seq "$seq" --amp pure --kernels eager --attention cudnn --json |
            perl -MJSON::PP -e 'local $/; my $d = decode_json(<STDIN>);
            printf "%.6f", $d->[0]{fwd_s} + $d->[0]{bwd_s}')
        e=$(echo "$p $t" | awk '{printf "%.1f", 100 * ($1 / $2 - 1)}')
        check "Llama 3 8B pass ($l layers) on an $gpu at $b x $seq tokens: measured $t s, dtplan $e% off, within its 8.4% band" \
            awk -v e="$e" 'BEGIN { exit !(e >= -8.4 && e <= 8.4) }'
    done < "$f"
done
# Without PyTorch (or a GPU) the fp8 measurement says it skipped, and succeeds.
if command -v python3 > /dev/null 2>&1; then
    out=$(python3 calibrate/fp8_gemm.py --quick 2>&1)
    rc=$?
    if python3 -c 'import torch; assert torch.cuda.is_available()' 2> /dev/null; then
        check "fp8_gemm.py measures on this GPU" sh -c 'echo "$1" | grep -q fp8_tflops' _ "$out"
    else
        check "fp8_gemm.py without PyTorch or a GPU prints a skip and exits 0 ($out)" \
            sh -c '[ "$1" -eq 0 ] && echo "$2" | grep -q "\"skipped\""' _ "$rc" "$out"
    fi
else
    echo "skip - calibrate: no python3 to run calibrate/fp8_gemm.py"
fi
exit 0
