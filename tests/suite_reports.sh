#!/bin/sh
# suite_reports.sh - dtplan --csv, the help text, the man page, bash
# completion and what `make install` puts in place.  Prints "ok - ..." /
# "FAIL - ..." lines for tests/run.sh ("skip - ..." when a tool the check
# needs is missing).  Run from the repository root; BUILD defaults to build.
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
SC=tests/data/report/scaling.yaml
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-reports.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok - reports: $1"; }
fail() { echo "FAIL - reports: $1"; }
skip() { echo "skip - reports: $1"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else fail "$d"; fi; }

if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi
nclusters=$(grep -c '^  - name:' "$SC")

# ---- CSV --------------------------------------------------------------------
"$DT" -q --csv "$SC" > "$tmp/c.csv" 2> "$tmp/err"
rc=$?
check "--csv exits 0" [ $rc -eq 0 -a ! -s "$tmp/err" ]
check "--csv: a header and one line per cluster" [ "$(wc -l < "$tmp/c.csv")" -eq $((nclusters + 1)) ]
check "--csv: the header starts with cluster,groups,recommended,feasible,step_mean_s" \
    sh -c "head -n 1 '$tmp/c.csv' | grep -q '^cluster,groups,recommended,feasible,step_mean_s,'"
fields=$(perl -MText::ParseWords -ne 'chomp; my @f = parse_line(",", 0, $_); print scalar(@f), "\n"' \
    "$tmp/c.csv" | sort -u | tr '\n' ' ')
check "--csv: every line has 51 fields (${fields})" [ "$fields" = "51 " ]
"$DT" -q --json "$SC" > "$tmp/r.json"
same=$(perl -MJSON::PP -MText::ParseWords -e '
    local $/; open my $j, "<", $ARGV[0] or die; my $r = decode_json(<$j>); close $j;
    open my $c, "<", $ARGV[1] or die; my @l = split /\n/, <$c>; shift @l;
    my $bad = 0;
    for my $i (0 .. $#l) {
        my @f = parse_line(",", 0, $l[$i]);
        my $k = $r->{clusters}[$i];
        $bad++ unless $f[0] eq $k->{name} && $f[4] == $k->{step_time_s}{mean}
            && $f[24] == $k->{cost_per_step_usd} && $f[30] eq $k->{bottleneck};
    }
    print $bad;' "$tmp/r.json" "$tmp/c.csv" 2>&1)
check "--csv agrees with --json on names, step times, costs and bottlenecks" [ "$same" = 0 ]
check "--csv: unknown values are empty, not 0 (no dataset in S1: empty epoch fields)" \
    sh -c "'$DT' -q --csv scenarios/seeds/s1-hetero-tfdata-resnet50.yaml | sed -n 2p | grep -q ',,,,,'"
"$DT" -q --csv -o "$tmp/o.csv" "$SC" > "$tmp/out" 2>&1
check "--csv -o writes the same CSV to the file" cmp -s "$tmp/c.csv" "$tmp/o.csv"
"$DT" -q --csv --json "$SC" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--csv with --json exits 2 with one line" [ $rc -eq 2 -a "$(wc -l < "$tmp/err")" -eq 1 -a ! -s "$tmp/out" ]
"$DT" -q --csv=yes "$SC" > "$tmp/out" 2> "$tmp/err"
check "--csv takes no value" [ $? -eq 2 ]

# ---- help, man page, completion agree ---------------------------------------
"$DT" --help > "$tmp/help" 2>&1
for o in --json --csv --output --trace --report --save-json --catalog --seed --steps --quiet --help --version; do
    check "--help, the man page and the completion all list $o" \
        sh -c "grep -q -- '$o' '$tmp/help' && grep -q -- '$(echo "$o" | sed 's/-/\\\\-/g')' docs/dtplan.1 && grep -q -- '$o' completions/dtplan.bash"
done
"$DT" plan --help > "$tmp/plan-help" 2>&1
plan_comp() { # the completions of `dtplan plan WORD`
    bash -c '. completions/dtplan.bash; COMP_WORDS=(dtplan plan "$1"); COMP_CWORD=2; _dtplan;
             printf "%s\n" "${COMPREPLY[@]}"' dtplan "$1"
}
plan_lists() { # plan_lists OPTION: plan --help, the man page and the plan completion have it
    grep -q -- "$1" "$tmp/plan-help" &&
        grep -qF -- "$(echo "$1" | sed 's/-/\\-/g')" docs/dtplan.1 &&
        [ "$(plan_comp "$1")" = "$1" ]
}
for o in --json --csv --trace --report --save-json --catalog --seed --steps --top; do
    check "dtplan plan --help, the man page and the plan completion all list $o" plan_lists "$o"
done
"$DT" calibrate --help > "$tmp/cal-help" 2>&1
cal_lists() { # cal_lists OPTION: calibrate --help and the calibrate completion have it
    grep -q -- "$1" "$tmp/cal-help" &&
        bash -c '. completions/dtplan.bash; COMP_WORDS=(dtplan calibrate "$1"); COMP_CWORD=2; _dtplan;
                 printf "%s\n" "${COMPREPLY[@]}"' dtplan "$1" | grep -qx -- "$1"
}
for o in --cpu --gpu --nccl --mpi --cmd --coll-cmd --coll-name --coll-ranks --coll-hosts --minbytes \
         --maxbytes --stepfactor --quick --seed --instance --resume --output; do
    check "dtplan calibrate --help and its completion both list $o" cal_lists "$o"
done
if command -v groff > /dev/null 2>&1; then
    groff -man -Tutf8 -ww -z docs/dtplan.1 > "$tmp/groff.out" 2>&1
    check "the man page renders without warnings" [ $? -eq 0 -a ! -s "$tmp/groff.out" ]
else
    skip "groff not installed: man page not rendered"
fi

if command -v bash > /dev/null 2>&1; then
    comp() { # comp WORD... : completions for the last word
        bash -c '. completions/dtplan.bash; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _dtplan;
                 printf "%s\n" "${COMPREPLY[@]}"' dtplan "$@"
    }
    check "completion: --tr completes to --trace" [ "$(comp dtplan --tr)" = "--trace" ]
    check "completion: --re completes to --report" [ "$(comp dtplan --re)" = "--report" ]
    mkdir -p "$tmp/c" && : > "$tmp/c/a.yaml" && : > "$tmp/c/b.txt" && : > "$tmp/c/t.json"
    check "completion: a scenario argument offers YAML files, not others" \
        [ "$(comp dtplan "$tmp/c/")" = "$tmp/c/a.yaml" ]
    check "completion: --trace offers JSON files, not others" \
        [ "$(comp dtplan --trace "$tmp/c/")" = "$tmp/c/t.json" ]
    check "completion: tests/data/report/s completes to the scaling scenario" \
        [ "$(comp dtplan tests/data/report/s)" = "tests/data/report/scaling.yaml" ]
    check "completion: --catalog completes directories only" \
        [ "$(comp dtplan --catalog catal)" = "catalog" ]
    check "completion: the first word offers the subcommands" \
        sh -c "[ \"\$(bash -c '. completions/dtplan.bash; COMP_WORDS=(dtplan ru); COMP_CWORD=1; _dtplan; echo \${COMPREPLY[0]}')\" = run ]"
else
    skip "bash not installed: completion not tried"
fi

# ---- make install -------------------------------------------------------------
if command -v make > /dev/null 2>&1; then
    make -s install BUILD="$BUILD" DESTDIR="$tmp/root" PREFIX=/usr > "$tmp/make.out" 2>&1
    rc=$?
    check "make install DESTDIR=... succeeds" [ $rc -eq 0 ]
    check "make install puts the man page in share/man/man1" cmp -s docs/dtplan.1 "$tmp/root/usr/share/man/man1/dtplan.1"
    check "make install puts the bash completion in place" \
        cmp -s completions/dtplan.bash "$tmp/root/usr/share/bash-completion/completions/dtplan"
    check "make install puts dtplan in bin" [ -x "$tmp/root/usr/bin/dtplan" ]
    if command -v man > /dev/null 2>&1; then
        MANPATH="$tmp/root/usr/share/man" man -P cat dtplan > "$tmp/man.out" 2> /dev/null
        check "man dtplan finds the installed page" grep -q -- '--report' "$tmp/man.out"
    else
        skip "man not installed: installed page not opened"
    fi
else
    skip "make not installed: install not tried"
fi

# ---- scaling efficiency under model parallelism -----------------------------
# per replica against one replica alone: never above 1, for the tensor- and
# pipeline-parallel layouts of the 70B scenario and the tp 8 one
for sc in scenarios/llm-70b-3d.yaml tests/data/cli/llama-tp8.yaml; do
    "$DT" -q --csv "$sc" > "$tmp/mp.csv" 2> /dev/null
    over=$(perl -MText::ParseWords -ne 'chomp; my @f = parse_line(",", 0, $_);
        if ($. == 1) { for my $i (0..$#f) { $c = $i if $f[$i] eq "scaling_efficiency" } next }
        print "$f[0]=$f[$c] " if !defined $f[$c] || $f[$c] eq "" || $f[$c] > 1 || $f[$c] <= 0' "$tmp/mp.csv")
    n=$(($(wc -l < "$tmp/mp.csv") - 1))
    check "scaling_efficiency of every cluster of $sc is in (0, 1] ($n clusters${over:+; found $over})" \
        [ -z "$over" -a "$n" -gt 0 ]
done

# ---- free clusters ----------------------------------------------------------
# hardware already paid for: the advice says free, not -nan% or +inf%
"$DT" -q tests/data/report/free.yaml > "$tmp/free.txt" 2>&1
check "free clusters: the recommendation says both are free" \
    grep -q 'per step (both free)' "$tmp/free.txt"
"$DT" -q --json tests/data/report/free.yaml > "$tmp/free.json" 2>&1
check "free clusters: no nan or inf in the text or the JSON" \
    sh -c "! grep -Eiq 'nan|inf%' '$tmp/free.txt' '$tmp/free.json'"

# ---- a search's progress (cli/progress.c) -------------------------------------
# DTPLAN_PROGRESS_AFTER=0 shows it from the start: into a file, a line at each
# tenth, the last at 100%; stdout the same as without; nothing under -q
P=tests/data/plan/enumerate-small.yaml
DTPLAN_PROGRESS_AFTER=0 "$DT" plan "$P" > "$tmp/p1.txt" 2> "$tmp/p1.err"
"$DT" plan -q "$P" > "$tmp/p2.txt" 2> /dev/null
n=$(grep -c '^dtplan plan: [0-9]* of [0-9]* candidates ([0-9]*%) in [0-9]* s, [0-9]* feasible' "$tmp/p1.err")
check "progress: 1 to 10 lines into a file ($n), the last of the sweep at 100%" \
    sh -c "[ $n -ge 1 ] && [ $n -le 10 ] && grep 'candidates (' '$tmp/p1.err' | tail -n 1 | grep -q '(100%)'"
# then the picks run again at full settings, phase by phase, each ending at its total
f=$(grep -c '^dtplan plan: finishing: the top, [0-9]* of [0-9]* at full settings, in [0-9]* s$' "$tmp/p1.err")
check "progress: the finishing phase too, 1 to 10 lines for the top ($f), the last at its total" \
    sh -c "[ $f -ge 1 ] && [ $f -le 10 ] && grep 'finishing: the top' '$tmp/p1.err' | tail -n 1 | grep -q ' \\([0-9]*\\) of \\1 at'"
check "progress: stdout is the same with it" cmp -s "$tmp/p1.txt" "$tmp/p2.txt"
DTPLAN_PROGRESS_AFTER=0 "$DT" plan -q "$P" > /dev/null 2> "$tmp/p3.err"
check "progress: nothing under -q" [ ! -s "$tmp/p3.err" ]

# ---- shapes as users write them ---------------------------------------------
# kv_heads absent is heads; a model's seq_len absent is the workload's: the
# same report as the shape written out in full
"$DT" -q --json tests/data/report/model-shape-short.yaml > "$tmp/s1.json" 2> "$tmp/s1.err"
rc=$?
"$DT" -q --json tests/data/report/model-shape-full.yaml > "$tmp/s2.json" 2> /dev/null
check "a shape without kv_heads and seq_len loads (exit $rc) and reports as the full one" \
    sh -c "[ $rc -eq 0 ] && [ ! -s '$tmp/s1.err' ] && cmp -s '$tmp/s1.json' '$tmp/s2.json'"

# ---- goodput (docs/model.md "Goodput"): CSV columns and the HTML chart ------
"$DT" -q --csv scenarios/goodput-16k.yaml > "$tmp/g.csv" 2> "$tmp/err"
check "goodput: the CSV has ettr and the failure-free time to train" \
    sh -c "head -1 '$tmp/g.csv' | grep -q ',ettr,interruptions_per_day,checkpoint_interval_s,checkpoint_write_s,restart_s,time_to_train_without_failures_s,cost_to_train_without_failures_usd,time_to_train_band_lo_s,time_to_train_band_hi_s,layout_why,ep_comm_s\$'"
"$DT" -q --report "$tmp/g.html" scenarios/goodput-16k.yaml > /dev/null 2> "$tmp/err"
check "goodput: the HTML report charts the effective training time, a point a cluster" \
    [ "$(grep -c '<svg id="chart-goodput"' "$tmp/g.html")" = 1 -a \
      "$(grep -o 'effective training time, [0-9.]* interruptions a day' "$tmp/g.html" | wc -l | tr -d ' ')" = 2 ]
"$DT" -q --report "$tmp/ng.html" tests/data/report/scaling.yaml > /dev/null 2> "$tmp/err"
check "goodput: no chart without a goodput section" sh -c "! grep -q 'chart-goodput' '$tmp/ng.html'"
# A store that bounds what one node writes (gcs-gcsfuse: 4.62 GB/s a node, no
# aggregate rate): the train nodes together set the checkpoint's write rate.
"$DT" -q --json tests/data/report/goodput-gcs.yaml > "$tmp/gcs.json" 2> "$tmp/err"
check "goodput: gcsfuse's 4.62 GB/s a node: 1 node writes at 4.62 GB/s, 4 at 18.48" \
    perl -MJSON::PP -e '
        local $/; open my $j, "<", $ARGV[0] or exit 1; my $d = decode_json(<$j>);
        my %want = (one => 4.62e9, four => 4 * 4.62e9); my $n = 0;
        for my $c (@{$d->{clusters}}) {
            my $g = $c->{goodput} or exit 1;
            my $rate = $g->{checkpoint_bytes} / $g->{checkpoint_write_s};
            exit 1 unless abs($rate - $want{$c->{name}}) < 1e-4 * $want{$c->{name}};
            $n++;
        }
        exit($n == 2 ? 0 : 1)' "$tmp/gcs.json"
# A store on the nodes' own disks (gcp-local-ssd-16: 3.12 GB/s a node, local)
# is written without the network: nodes whose NICs give 1 GB/s write to it at
# 3.12 GB/s each, to Cloud Storage at 1 GB/s; the prediction says what it
# assumed of a lost node's share.
sed -e 's/instance: p5.48xlarge/instance: slow/' \
    -e '/^workload:/i catalog: {instances: [{name: slow, cloud: gcp, vcpus: 208, gpu_model: H100, gpu_count: 8, intra_node_link: NVSwitch, network_gbps: 8, nics: 1, price_usd_h: 10, source: test}]}' \
    tests/data/report/goodput-gcs.yaml > "$tmp/slow-gcs.yaml"
sed 's/storage: gcs-gcsfuse/storage: gcp-local-ssd-16/' "$tmp/slow-gcs.yaml" > "$tmp/slow-ssd.yaml"
rate() { # FILE: the first cluster's checkpoint write rate in GB/s, and whether an assumption names its local store
    "$DT" -q --json "$1" 2> /dev/null | perl -MJSON::PP -e '
        local $/; my $c = decode_json(<STDIN>)->{clusters}[0]; my $g = $c->{goodput};
        printf "%.3f %d\n", $g->{checkpoint_bytes} / $g->{checkpoint_write_s} / 1e9,
            scalar grep { /own disks/ } @{$c->{assumptions} || []}'
}
ssd=$(rate "$tmp/slow-ssd.yaml"); gcs=$(rate "$tmp/slow-gcs.yaml")
check "goodput: a local store is written without the NICs ($ssd: 3.12 GB/s, said) where Cloud Storage goes through them ($gcs: 1 GB/s)" \
    [ "$ssd" = "3.120 1" -a "$gcs" = "1.000 0" ]
# A preemption saved at its notice (goodput.spot_notice_save) loses no work
# and costs a restart and the save: on AWS (120 s notice, a 6 s write) all 20
# a day are saved and the time trains more than without the key; a GCP type
# (30 s) whose store takes a minute saves none.
notice() { # FILE: spot_saved_per_day and ettr of the first cluster
    "$DT" -q --json "$1" 2> /dev/null | perl -MJSON::PP -e '
        local $/; my $g = decode_json(<STDIN>)->{clusters}[0]{goodput};
        printf "%s %.4f\n", $g->{spot_saved_per_day} // "null", $g->{ettr}'
}
f=tests/data/report/goodput-notice.yaml
sed 's/spot_notice_save: true, //' "$f" > "$tmp/notice-off.yaml"
sed -e 's/instance: p5.48xlarge/instance: gnode/' -e 's/storage: gcs-gcsfuse/storage_gbs: 2/' \
    -e '/^workload:/i catalog: {instances: [{name: gnode, cloud: gcp, vcpus: 208, gpu_model: H100, gpu_count: 8, intra_node_link: NVSwitch, network_gbps: 1600, nics: 8, price_usd_h: 10, spot_usd_h: 4, source: test}]}' \
    "$f" > "$tmp/notice-gcp.yaml"
on=$(notice "$f"); off=$(notice "$tmp/notice-off.yaml"); gcp=$(notice "$tmp/notice-gcp.yaml")
check "goodput: preemptions saved at their notice: AWS saves all 20 a day ($on), more of the time trains than without ($off); GCP's 30 s saves none ($gcp)" \
    sh -c "[ '${on% *}' = 20 ] && [ '${off% *}' = null ] && [ '${gcp% *}' = 0 ] && awk 'BEGIN { exit !(${on#* } > ${off#* }) }'"
# scenarios/llm-8b-spot.yaml: each spot cluster takes its type's band (p4d
# 10-15%, p5 over 20%, p5en under 5% of capacity a month: 0.125, 0.2 and
# 0.025 over 30 days), and at those rates each costs less to train than the
# same nodes on demand.
"$DT" -q --json scenarios/llm-8b-spot.yaml > "$tmp/spot.json" 2> "$tmp/err"
check "goodput: llm-8b-spot's spot clusters at their types' bands, each cheaper to train than on demand" \
    perl -MJSON::PP -e '
        local $/; open my $j, "<", $ARGV[0] or exit 1; my $d = decode_json(<$j>);
        my %c = map { $_->{name} => $_ } @{$d->{clusters}};
        my %want = ("4x-p4d-spot" => 0.125 / 30, "4x-p5-spot" => 0.2 / 30, "4x-p5en-spot" => 0.025 / 30);
        for my $n (keys %want) {
            my $g = $c{$n}{goodput} or exit 1;
            exit 1 unless $g->{spot_rate_from} eq "band" &&
                abs($g->{spot_preemptions_per_day} - $want{$n}) < 1e-6 * $want{$n} + 1e-9;
            (my $od = $n) =~ s/-spot$//;
            exit 1 unless $c{$n}{cost_to_train_usd} < $c{$od}{cost_to_train_usd};
        }
        exit 0' "$tmp/spot.json"
# The recommendation says what failures cost at the recommended size, listed
# and searched, with the figures of its goodput object in the JSON.
goodput_said() { # FILE.txt FILE.json: the Failures clause names the JSON's rate and ETTR
    perl -MJSON::PP -e '
        my ($txt, $js) = @ARGV; local $/;
        open my $t, "<", $txt or exit 1; my $text = <$t>;
        open my $j, "<", $js or exit 1; my $d = decode_json(<$j>);
        my ($rec) = $text =~ /^Recommendation: (.*)$/m or exit 1;
        my ($rate, $ettr) = $rec =~ / Failures: ([0-9.e+-]+) interruptions a day at its size, ([0-9.]+)% of the time training/ or exit 1;
        my $name = $d->{recommendation}{cluster} // exit 1;
        my ($c) = grep { $_->{name} eq $name } @{$d->{clusters} // []}, @{$d->{top} // []};
        my $g = $c && $c->{goodput} or exit 1;
        exit(abs($rate - $g->{interruptions_per_day}) <= 0.001 * $g->{interruptions_per_day} + 1e-9 &&
             abs($ettr - 100 * $g->{ettr}) <= 0.05 ? 0 : 1)' "$1" "$2"
}
"$DT" -q --save-json "$tmp/g.json" scenarios/llm-8b-fsdp.yaml > "$tmp/g.txt" 2> "$tmp/err"
check "goodput: the recommendation says what failures cost at its size, as its JSON has it" \
    goodput_said "$tmp/g.txt" "$tmp/g.json"
"$DT" plan -q --save-json "$tmp/gp.json" scenarios/llm-70b-sharded.yaml > "$tmp/gp.txt" 2> "$tmp/err"
check "goodput: the search's recommendation says it too" goodput_said "$tmp/gp.txt" "$tmp/gp.json"
# The time to train over the step's band: the expected time (failures
# included) scaled by the band over the mean step, since Daly's wall time is
# linear in the work; the cost is the price times it.  FILE.json, KEY of the
# clusters (listed: clusters, time_to_train_s, step_time_s; searched: top,
# train_s, step_s).
train_band_ok() {
    perl -MJSON::PP -e '
        my ($js, $list, $tkey, $bkey) = @ARGV; local $/;
        open my $j, "<", $js or exit 1; my $d = decode_json(<$j>);
        my ($n, $bad) = (0, 0);
        for my $c (@{$d->{$list} // []}) {
            my ($t, $b) = ($c->{$tkey}, $c->{$bkey});
            my ($step, $band) = $list eq "clusters" ? ($c->{step_time_s}{mean}, $c->{step_time_s}{band})
                                                    : ($c->{step_s}, $c->{step_band_s});
            next unless defined $t && $band && defined $band->[0];
            $n++;
            my $cost = $c->{cost_to_train_band_usd};
            my $price = $c->{price_usd_per_h} // $c->{price_usd_h};
            for my $i (0, 1) {
                $bad++ if abs($b->[$i] - $t * $band->[$i] / $step) > 1e-5 * $b->[$i];
                $bad++ if abs($cost->[$i] - $price * $b->[$i] / 3600) > 1e-5 * $cost->[$i] + 1e-6;
            }
            $bad++ unless $b->[0] < $t && $t < $b->[1];
        }
        exit($n > 0 && !$bad ? 0 : 1)' "$@"
}
"$DT" -q --json scenarios/goodput-16k.yaml > "$tmp/gb.json" 2> "$tmp/err"
check "goodput: each cluster's time and cost to train over its step band, failures included" \
    train_band_ok "$tmp/gb.json" clusters time_to_train_s time_to_train_band_s
check "goodput: a search's candidates carry the same band" \
    train_band_ok "$tmp/gp.json" top train_s train_band_s
"$DT" -q scenarios/goodput-16k.yaml > "$tmp/gb.txt" 2> "$tmp/err"
check "goodput: the goodput line gives the time to train over the step's band" \
    sh -c "[ \$(grep -c '^Goodput: .* to train (.*without failures), .* to .* over the step.s band' '$tmp/gb.txt') = 2 ]"
# A mixture of experts without CUDA graphs (workload.cuda_graphs none): the
# GPUs wait for the host's launches, which the text names in a Host: line and
# the bottleneck as host-launch-bound, and JSON as host_wait_s; with graphs
# (the default) there is no such wait.
moe=validate/published/llm_runs/mb2604-qwen3-30b-h100-fp8.yaml
sed 's/^  cuda_graphs: none$/  cuda_graphs: full/' "$moe" > "$tmp/moe-full.yaml"
hostwait() { # FILE: host_wait_s of the first cluster
    "$DT" -q --json "$1" 2> /dev/null | perl -MJSON::PP -e '
        local $/; printf "%.3f\n", decode_json(<STDIN>)->{clusters}[0]{host_wait_s}'
}
hw_none=$(hostwait "$moe"); hw_full=$(hostwait "$tmp/moe-full.yaml")
check "cuda_graphs none: the GPUs wait for the host ($hw_none s a step), full: not ($hw_full s)" \
    perl -e 'exit !($ARGV[0] > 1 && $ARGV[1] == 0)' "$hw_none" "$hw_full"
"$DT" -q "$moe" > "$tmp/moe.txt" 2> "$tmp/err"
check "cuda_graphs none: a Host: line and a host-launch-bound bottleneck" \
    sh -c "grep -q '^Host: run: without full-iteration CUDA graphs the GPUs wait' '$tmp/moe.txt' && grep -q 'host-launch-bound: ' '$tmp/moe.txt'"
# The expert-parallel overlap's held SMs (parallel.ep_sms): the compute beside
# the all-to-alls loses time to them, in the Experts: line and as
# ep_sm_slow_s; 32 held lose more than 20, and no overlap loses none.
ov=validate/published/llm_runs/mb2608-gpt-oss-120b-gb200-mxfp8.yaml
sed 's/ep_sms: 32,/ep_sms: 20,/' "$ov" > "$tmp/ov20.yaml"
sed 's/ ep_overlap: true,//' "$ov" > "$tmp/ov-off.yaml"
smslow() { # FILE: ep_sm_slow_s of the first cluster
    "$DT" -q --json "$1" 2> /dev/null | perl -MJSON::PP -e '
        local $/; printf "%.4f\n", decode_json(<STDIN>)->{clusters}[0]{ep_sm_slow_s}'
}
s32=$(smslow "$ov"); s20=$(smslow "$tmp/ov20.yaml"); s0=$(smslow "$tmp/ov-off.yaml")
check "ep_overlap: 32 held SMs slow the compute beside it $s32 s a step, 20 $s20 s, no overlap $s0 s" \
    perl -e 'exit !($ARGV[0] > $ARGV[1] && $ARGV[1] > 0 && $ARGV[2] == 0)' "$s32" "$s20" "$s0"
"$DT" -q "$ov" > "$tmp/ov.txt" 2> "$tmp/err"
gb300=validate/published/llm_runs/mb2608-gpt-oss-120b-gb300-mxfp8.yaml
"$DT" -q "$gb300" > "$tmp/gb300.txt" 2> "$tmp/err"
check "ep_overlap on a GPU of unknown SM count: an Assumed: line says the held SMs slow nothing, and none on GB200" \
    sh -c "grep -q '^Assumed: run: gb300-nvl-64: its GB300.s SM count is unknown in the catalog' '$tmp/gb300.txt' && ! grep -q 'SM count is unknown' '$tmp/ov.txt'"
check "ep_overlap: the Experts: line names the held SMs" \
    grep -q '^Experts: run: .* loses .* s to the 32 SMs their kernels hold (parallel.ep_sms)' "$tmp/ov.txt"
# Scoped CUDA graphs: no host floor is taken, and the Assumed: line says where one binds and how
# to give it (Megatron-Bridge 26.02's Qwen3-30B at micro-batch 1); a run that gives one is told so.
sg=validate/published/llm_runs/mb2602-qwen3-30b-b200-mxfp8.yaml
"$DT" -q "$sg" > "$tmp/sg.txt" 2> "$tmp/err"
sed 's/^  cuda_graphs: partial$/  cuda_graphs: partial\n  moe_host_pass_s: 0.009/' "$sg" > "$tmp/sg9.yaml"
"$DT" -q "$tmp/sg9.yaml" > "$tmp/sg9.txt" 2> "$tmp/err"
check "scoped CUDA graphs: the Assumed: line says the floor binds at small micro-batches and names moe_host_pass_s; with it, the pass takes the scenario's 9 ms" \
    sh -c "grep -q '^Assumed: run: mixture of experts under scoped CUDA graphs .*it binds at small micro-batches .*set workload.moe_host_pass_s' '$tmp/sg.txt' &&
           grep -q '^Assumed: run: mixture of experts under scoped CUDA graphs: each MoE layer.s pass takes at least the 9 ms' '$tmp/sg9.txt' &&
           grep -q '^Host: run: ' '$tmp/sg9.txt'"
