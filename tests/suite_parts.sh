#!/bin/sh
# suite_parts.sh - the step's parts add up to the step, in every report of
# `dtplan SCENARIO` and `dtplan plan SCENARIO`: compute + stall + dp comm +
# tp comm + bubble + interf + optim = step (docs/output.md "Where the step
# goes").  For each scenario below, every cluster of the JSON (listed: its
# breakdown_s; plan: every pick, the current choice and the best of each
# kind), every line of the CSV and every row of the text tables.  Prints
# "ok - ..." / "FAIL - ..." lines for tests/run.sh.  Run from the repository
# root; BUILD defaults to build.
#
# Tolerances: JSON and CSV numbers have 6 significant digits, so the parts
# must add up within 0.1% of the step (or 0.05 ms); the table's cells are
# rounded to 0.1 ms each, so there within 0.05 ms a summed cell more, or
# 0.1% of the step.
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-parts.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok - parts: $1"; }
fail() { echo "FAIL - parts: $1"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else fail "$d"; fi; }

if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi

# json_sums FILE: "N BAD WHAT" - the clusters (objects with a step) seen and
# those whose parts miss the step, then the first miss, if any.  Listed
# reports keep the parts in breakdown_s (seconds) beside step_time_s.mean;
# plan reports keep them as NAME_s fields beside step_s.  Also counts a
# miss where dp comm + tp comm + ep comm is not exposed_comm (the older field).
json_sums() {
    perl -MJSON::PP -e '
        local $/; open my $j, "<", $ARGV[0] or die "$ARGV[0]: $!"; my $r = decode_json(<$j>);
        my ($n, $bad, $what, $tp, $bub, $ep) = (0, 0, "", 0, 0, 0);
        my @parts = qw(compute data_stall dp_comm tp_comm ep_comm pipeline_bubble comm_interference optimizer);
        sub miss { my ($a, $b) = @_; return abs($a - $b) > (0.001 * abs($a) > 5e-5 ? 0.001 * abs($a) : 5e-5) }
        sub one {
            my ($name, $step, $p) = @_;
            return unless defined $step;
            $n++;
            my $sum = 0;
            for my $k (@parts) {
                if (!defined $p->{$k}) { $bad++; $what ||= "$name: no $k"; return }
                $sum += $p->{$k};
            }
            $tp++ if $p->{tp_comm} > 0;
            $bub++ if $p->{pipeline_bubble} > 0;
            $ep++ if $p->{ep_comm} > 0;
            if (miss($step, $sum)) { $bad++; $what ||= "$name: step $step, parts $sum" }
            elsif (miss($p->{exposed_comm}, $p->{dp_comm} + $p->{tp_comm} + $p->{ep_comm})) {
                $bad++; $what ||= "$name: exposed_comm $p->{exposed_comm} is not dp_comm + tp_comm + ep_comm";
            }
        }
        sub walk {
            my ($x) = @_;
            if (ref $x eq "ARRAY") { walk($_) for @$x; return }
            return unless ref $x eq "HASH";
            if (exists $x->{breakdown_s}) {
                one($x->{name}, $x->{step_time_s}{mean}, $x->{breakdown_s});
            } elsif (exists $x->{step_s}) {
                my %p = map { my $v = $x->{"${_}_s"}; ($_ => $v) } (@parts, "exposed_comm");
                one($x->{name}, $x->{step_s}, \%p);
            }
            walk($x->{$_}) for sort keys %$x;
        }
        walk($r);
        print "$n $bad $tp $bub $ep $what\n";' "$1" 2>&1
}

# csv_sums FILE: "N BAD WHAT" for the CSV's lines, by the header's names.
csv_sums() {
    perl -MText::ParseWords -e '
        open my $c, "<", $ARGV[0] or die "$ARGV[0]: $!"; chomp(my @l = <$c>);
        my @h = parse_line(",", 0, shift @l); my %i; @i{@h} = 0 .. $#h;
        my @parts = qw(compute_s data_stall_s dp_comm_s tp_comm_s ep_comm_s pipeline_bubble_s comm_interference_s optimizer_s);
        for (@parts, "step_mean_s") { die "no column $_\n" unless exists $i{$_} }
        my ($n, $bad, $what) = (0, 0, "");
        for my $line (@l) {
            my @f = parse_line(",", 0, $line);
            my $step = $f[$i{step_mean_s}];
            next if $step eq "";
            $n++;
            my $sum = 0; $sum += $f[$i{$_}] for @parts;
            my $tol = 0.001 * $step > 5e-5 ? 0.001 * $step : 5e-5;
            if (abs($step - $sum) > $tol) { $bad++; $what ||= "$f[0]: step $step, parts $sum" }
        }
        print "$n $bad $what\n";' "$1" 2>&1
}

# table_sums FILE: "N BAD SHOWN WHAT" for every table in the text report:
# a header line holds "step ms" and "compute"; its rows follow to the first
# blank line or a line of notes ("Times in ms ...", "Collectives: ...": rows
# start with a blank, a mark, a rank or a kind in lower case).  The cells are right-aligned, so each ends where its heading
# ends.  SHOWN lists the part columns of the first table.
table_sums() {
    perl -e '
        open my $t, "<", $ARGV[0] or die "$ARGV[0]: $!"; chomp(my @l = <$t>);
        my @parts = ("compute", "stall", "dp comm", "tp comm", "ep comm", "bubble", "interf", "optim");
        my ($n, $bad, $what, $shown) = (0, 0, "", "");
        sub cell { my ($row, $end) = @_; my $s = substr($row, 0, $end); $s =~ /(\S+)$/; return $1 }
        for (my $i = 0; $i < @l; $i++) {
            my $h = $l[$i];
            next unless $h =~ /  step ms  / && $h =~ /  compute  /;
            my %end;
            for my $c ("step ms", @parts) {
                my $at = index($h, "  $c  ");
                $end{$c} = $at + 2 + length($c) if $at >= 0;
            }
            $shown ||= join(",", map { s/ /_/r } grep { exists $end{$_} } @parts);
            for (my $k = $i + 1; $k < @l && $l[$k] ne "" && $l[$k] !~ /^[A-Z]/; $k++) {
                my $row = $l[$k];
                my $step = cell($row, $end{"step ms"});
                next unless defined $step && $step =~ /^[0-9.]+$/;
                $n++;
                my ($sum, $m) = (0, 0);
                for my $c (grep { exists $end{$_} } @parts) { $sum += cell($row, $end{$c}); $m++ }
                my $tol = 0.05 * ($m + 1) + 0.001 * $step;
                if (abs($step - $sum) > $tol) { $bad++; $what ||= "line " . ($k + 1) . ": step $step, columns $sum" }
            }
        }
        print "$n $bad $shown $what\n";' "$1" 2>&1
}

# The CSV and the table of NAME in FILE.csv and FILE.txt add up; WHAT names
# the table's rows ("rows", "tables' rows").
check_csv() {
    set -- "$1" $(csv_sums "$2")
    b=$1 n=$2 bad=$3; shift 3
    check "$b --csv: the parts of each of its $n lines add up to step_mean_s $*" [ "$n" -gt 0 -a "$bad" = 0 ]
}
check_table() {
    set -- "$1" "$3" $(table_sums "$2")
    b=$1 what=$2 n=$3 bad=$4 shown=$5; shift 5
    check "$b $what: the columns $shown of each of its $n rows add up to step ms $*" [ "$n" -gt 0 -a "$bad" = 0 ]
}

# ---- dtplan SCENARIO: the listed clusters -----------------------------------
# llm-70b-3d: tensor and pipeline parallelism (the shipped scenario with its
# layout fixed at tp 4 x pp 4, so that every cluster has both parts whatever
# the search would pick); llm-8b-fsdp: sharded; s1: input-bound;
# deepfm-ps-sync: parameter servers and a CPU cluster; moe-deepseek-v3: the
# all-to-alls of a pipeline's stages; the Qwen3-30B row: the all-to-alls as
# flows, without a pipeline.
sed -e 's/^parallel: {tp: auto, pp: auto}$/parallel: {tp: 4, pp: 4}/' \
    -e 's/^  sharding: auto$/  sharding: zero1/' -e 's/^  recompute: auto$/  recompute: selective/' \
    scenarios/llm-70b-3d.yaml > "$tmp/llm-70b-3d.yaml"
check "the fixed 3D layout is in the copy" grep -q '^parallel: {tp: 4, pp: 4}$' "$tmp/llm-70b-3d.yaml"
for sc in "$tmp/llm-70b-3d.yaml" scenarios/llm-8b-fsdp.yaml \
          scenarios/seeds/s1-hetero-tfdata-resnet50.yaml tests/data/deepfm-ps-sync.yaml \
          scenarios/moe-deepseek-v3.yaml validate/published/llm_runs/mb2604-qwen3-30b-h100-fp8.yaml; do
    b=$(basename "$sc" .yaml)
    # the table and, beside it, the JSON (--save-json): one run for both
    "$DT" -q --save-json "$tmp/$b.json" "$sc" > "$tmp/$b.txt" 2> "$tmp/err"
    set -- $(json_sums "$tmp/$b.json")
    n=$1 bad=$2 tp=$3 bub=$4 ep=$5; shift 5
    check "$b --json: the parts of each of its $n clusters add up to the step $*" [ "$n" -gt 0 -a "$bad" = 0 ]
    [ "$b" = llm-70b-3d ] &&
        check "$b --json: tensor-parallel and bubble parts are there to add ($tp and $bub clusters)" \
            [ "$tp" -gt 0 -a "$bub" -gt 0 ]
    case $b in moe-*|*qwen3*)
        check "$b --json: the all-to-alls' part is there to add ($ep clusters)" [ "$ep" -gt 0 ]
        check "$b table: an ep comm column" sh -c "grep '  step ms  ' '$tmp/$b.txt' | grep -q ' ep comm '";;
    esac
    "$DT" -q --csv "$sc" > "$tmp/$b.csv" 2> "$tmp/err"
    check_csv "$b" "$tmp/$b.csv"
    check_table "$b" "$tmp/$b.txt" table
done
check "llm-70b-3d table: tp comm and bubble columns shown (some cluster has them)" \
    sh -c "grep '  step ms  ' '$tmp/llm-70b-3d.txt' | grep -q ' tp comm .* bubble '"
check "llm-8b-fsdp table: no tp comm or bubble columns (no cluster has them)" \
    sh -c "! grep '  step ms  ' '$tmp/llm-8b-fsdp.txt' | grep -q 'tp comm\|bubble'"
check "the legend says the columns add up to the step" \
    grep -q '^Times in ms per step (step: mean, p95: 95th percentile; compute + stall + dp comm + tp comm + bubble + interf + optim = step)\.$' "$tmp/llm-70b-3d.txt"
check "the legend no longer calls the communication column gradient communication" \
    sh -c "! grep -q 'exposed gradient communication' '$tmp/llm-70b-3d.txt'"

# ---- dtplan plan SCENARIO: the catalog search -------------------------------
for sc in "$tmp/llm-70b-3d.yaml" scenarios/llm-8b-fsdp.yaml tests/data/plan/cpu-bound-vision.yaml; do
    b=plan-$(basename "$sc" .yaml)
    "$DT" plan -q --save-json "$tmp/$b.json" "$sc" > "$tmp/$b.txt" 2> "$tmp/err"
    set -- $(json_sums "$tmp/$b.json")
    n=$1 bad=$2 tp=$3 bub=$4; shift 5
    check "$b --json: the parts of each of its $n picks add up to the step $*" [ "$n" -gt 0 -a "$bad" = 0 ]
    [ "$b" = plan-llm-70b-3d ] &&
        check "$b --json: tensor-parallel and bubble parts are there to add ($tp and $bub picks)" \
            [ "$tp" -gt 0 -a "$bub" -gt 0 ]
    if [ "$b" != plan-llm-70b-3d ]; then     # its search takes seconds: JSON and table only
        "$DT" plan -q --csv "$sc" > "$tmp/$b.csv" 2> "$tmp/err"
        check_csv "$b" "$tmp/$b.csv"
    fi
    check_table "$b" "$tmp/$b.txt" tables
done
check "plan-cpu-bound-vision: the input stall is there to add" \
    sh -c "grep -q '\"data_stall_s\":	0\.[0-9]*[1-9]' '$tmp/plan-cpu-bound-vision.json'"

# ---- the checks can fail ----------------------------------------------------
# A table whose bubble column is taken out no longer adds up.
perl -pe 's/(  bubble)(  )/  xxxxxx$2/ if /  step ms  /' "$tmp/llm-70b-3d.txt" > "$tmp/nobubble.txt"
set -- $(table_sums "$tmp/nobubble.txt")
check "a table without its bubble column is caught ($2 of $1 rows)" [ "$2" -gt 0 ]
perl -MJSON::PP -e 'local $/; my $r = decode_json(<STDIN>); $_->{breakdown_s}{dp_comm} += 0.01 * $_->{step_time_s}{mean} for @{$r->{clusters}}; print encode_json($r)' \
    < "$tmp/llm-8b-fsdp.json" > "$tmp/off.json"
set -- $(json_sums "$tmp/off.json")
check "JSON parts 1% off the step are caught ($2 of $1 clusters)" [ "$2" -gt 0 ]
