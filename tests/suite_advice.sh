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
# each search once: its table and, beside it, its JSON (--save-json)
for f in scenarios/*.yaml tests/data/plan/*.yaml; do
    n=$((n + 1))
    name=$(basename "$f" .yaml)
    "$DT" plan -q --save-json "$tmp/p-$name.json" "$f" > "$tmp/$name.txt" 2> "$tmp/err" ||
        rm -f "$tmp/p-$name.json"
done
got=$(ls "$tmp"/*.json | wc -l | tr -d ' ')
if [ "$got" -ge 30 ]; then
    echo "ok - advice: $got of $n scenarios planned"
else
    echo "FAIL - advice: only $got of $n scenarios planned"
fi
perl tests/advice_check.pl "$tmp"/*.json

# ---- the shipped LLM plans make sense (issue 35) ------------------------------
for f in scenarios/llm-*.yaml scenarios/moe-*.yaml scenarios/compare-*.yaml; do
    name=$(basename "$f" .yaml)
    gb=$(sed -n 's/^ *global_batch: *\([0-9]*\).*/\1/p' "$f" | head -n 1)
    perl -MJSON::PP -e '
        my ($file, $txt, $gb, $name) = @ARGV;
        local $/; open my $fh, "<", $file or die; my $d = decode_json(<$fh>);
        open my $th, "<", $txt or die; my $text = <$th>;
        my $rec = $d->{recommendation}{cluster} // "";
        my ($r) = grep { $_->{name} eq $rec } @{$d->{top}}, $d->{current};
        my $ok = sub { print(($_[0] ? "ok" : "FAIL") . " - advice: $name: $_[1]\n") };
        $ok->($r && $r->{util_gpu} > 0, "the recommendation, $rec, trains on GPUs");
        $ok->($r && $r->{memory_gib}{total} <= $r->{memory_gib}{capacity},
              "and fits in memory ($r->{memory_gib}{total} of $r->{memory_gib}{capacity} GiB)");
        my $cur = $d->{current};
        $ok->(!$cur->{feasible} || $d->{objective} eq "step_time"
              || $r->{cost_to_train_usd} <= $cur->{cost_to_train_usd} * (1 + 1e-6),
              "and costs no more to train than the current choice");
        exit 0 unless $gb;
        my ($bad, $said) = (0, 0);
        for my $p (@{$d->{top}}) {
            my $differs = abs($p->{global_batch} - $gb) >= 0.5;
            $bad++ if $differs != defined $p->{batch_note};
            $bad++ if $differs && index($text, "Batch: $p->{name}: runs $p->{global_batch} samples") < 0;
            $said++ if $differs;
        }
        $ok->($bad == 0, "each of the $said candidates whose global batch is not $gb says so, in the JSON and the text, and no other");
    ' "$tmp/p-$name.json" "$tmp/$name.txt" "$gb" "$name"
done

# ---- a 70B model over the four clouds (issue 39) -----------------------------
# llm-70b-3d's search covers every cloud of the catalog: the report shows the
# best of each, each fits its GPUs and trains on them, and the recommendation
# is the best of its own cloud.
perl -MJSON::PP -e '
    local $/; open my $fh, "<", $ARGV[0] or die; my $d = decode_json(<$fh>);
    my $b = $d->{best_of_cloud} // {};
    my @want = qw(aws gcp azure oci);
    my @have = grep { $b->{$_} } @want;
    my @bad = grep { my $p = $b->{$_}; !($p->{feasible} && $p->{util_gpu} > 0 &&
                     $p->{memory_gib}{total} <= $p->{memory_gib}{capacity}) } @have;
    my $rec = $d->{recommendation}{cluster} // "";
    my ($mine) = grep { $b->{$_}{name} eq $rec } keys %$b;
    print((@have == 4 && !@bad && $mine ? "ok" : "FAIL") .
          " - advice: llm-70b-3d: the best on each of aws, gcp, azure and oci is shown, fits and trains on GPUs " .
          "(found @have; not sound: @bad), and the recommendation, $rec, is the best on its cloud (" .
          ($mine // "none") . ")\n");
' "$tmp/p-llm-70b-3d.json"

# ---- the MoE plan's layout follows memory (issue 38) ------------------------
# DeepSeek-V3 at pp 8 on 256 GPUs, its routed copies at dropless routing's
# imbalance (the scenario leaves moe_imbalance to dtplan), MLA's up
# projections recomputed as its report runs them and its weights in fp8 as
# Megatron-Bridge's recipes hold them: an 80 GB H100 holds its experts only
# by recomputing every layer, a 141 GB H200 keeps the activations only with
# the experts spread over 32 ranks; the search says what does not fit; across
# nodes of EFA the all-to-alls overlapping the other micro-batch pay
# (ep_overlap: auto: on); a 180 GB B200 keeps every layer's activations with
# a node's share of the experts at ep 8, so its all-to-alls stay on NVLink
# (DeepEP's kernels at its published 0.825 of NCCL's rate there), and a B200
# type is the better buy.
"$DT" -q scenarios/moe-deepseek-v3.yaml > "$tmp/moe.txt" 2>&1
if grep -q "^Layout: 32x-p5: ep [0-9]* + zero1, ep_overlap on, recompute full, .*do not fit at batch_per_gpu 1, the closest .* over the 7[0-9].[0-9] GiB usable" "$tmp/moe.txt" &&
   grep -q "^Layout: 32x-p5en: ep 32 + zero1, ep_overlap on, recompute none, .* over the 12[0-9].[0-9] GiB usable" "$tmp/moe.txt" &&
   grep -q "^Layout: 32x-p6-b200: ep 8 + zero1, ep_overlap on, recompute none, " "$tmp/moe.txt" &&
   grep -q "^Experts: 32x-p6-b200: the MoE layers' all-to-alls (expert parallelism, inside a node, over NVLink, DeepEP's kernels at 0.825 of NCCL's NVLink rate)" "$tmp/moe.txt" &&
   grep -q "^Recommendation: [a-z_]*: 32x-oci-b200\|^Recommendation: [a-z_]*: 32x-p6-b200" "$tmp/moe.txt"; then
    echo "ok - advice: moe-deepseek-v3: H100 recomputes every layer to fit, H200 spreads its experts wider, B200 keeps ep in a node and is recommended"
else
    echo "FAIL - advice: moe-deepseek-v3: H100 recomputes every layer to fit, H200 spreads its experts wider, B200 keeps ep in a node and is recommended"
fi
# ep_overlap: auto weighs the all-to-alls it hides against the compute the
# dispatcher's held SMs slow: Qwen3-30B at ep 8 inside p5 nodes overlaps at
# DeepEP's 20 SMs, not at 48.
cat > "$tmp/ov.yaml" <<'YAML'
workload: {model: qwen3-30b-a3b, precision: bf16, seq_len: 4096, global_batch: 256, moe_imbalance: 1}
input: {cpu_s_per_sample: 0}
gradients: {sharding: zero1, precision: bf16}
parallel: {ep: 8, ep_dispatch: deepep, ep_overlap: auto, micro_batch: 1}
clusters:
  - {name: p5, groups: [{role: train, instance: p5.48xlarge, count: 2}]}
YAML
sed 's/ep_overlap: auto,/ep_overlap: auto, ep_sms: 48,/' "$tmp/ov.yaml" > "$tmp/ov48.yaml"
"$DT" -q "$tmp/ov.yaml" > "$tmp/ov.txt" 2>&1
"$DT" -q "$tmp/ov48.yaml" > "$tmp/ov48.txt" 2>&1
if grep -q "^Layout: p5: zero1, ep_overlap on, .* faster than zero1, ep_overlap off" "$tmp/ov.txt" &&
   grep -q "^Layout: p5: zero1, ep_overlap off, .* faster than zero1, ep_overlap on" "$tmp/ov48.txt"; then
    echo "ok - advice: ep_overlap auto: on at the dispatcher's 20 SMs, off at 48"
else
    echo "FAIL - advice: ep_overlap auto: on at the dispatcher's 20 SMs, off at 48"
fi
# The all-to-alls bound the step where they are its largest part: NCCL's
# all-to-all of Qwen3-30B over 4 p4d nodes' NICs (ep 32) outlasts the
# compute; at ep 64 x cp 2 over 2,048 p5 nodes they outlast it too, but the
# data-parallel gathers and reductions over 8,192 ranks take far longer (the
# label had read only the compute).
cat > "$tmp/eb.yaml" <<'YAML'
workload: {model: qwen3-30b-a3b, batch_per_gpu: 1, precision: bf16, seq_len: 4096, global_batch: 64, moe_imbalance: 1}
input: {cpu_s_per_sample: 0}
gradients: {sharding: zero1, precision: bf16}
parallel: {tp: 1, ep: 32, ep_dispatch: alltoall}
clusters:
  - {name: p4d-4, groups: [{role: train, instance: p4d.24xlarge, count: 4}]}
simulation: {seed: 1, steps: 2, warmup: 1}
YAML
cat > "$tmp/edp.yaml" <<'YAML'
workload: {model: qwen3-30b-a3b, batch_per_gpu: 1, precision: bf16, seq_len: 8192, global_batch: 16384}
input: {cpu_s_per_sample: 0}
gradients: {sharding: zero1, precision: bf16}
parallel: {tp: 1, ep: 64, cp: 2}
clusters:
  - {name: p5-2048, groups: [{role: train, instance: p5.48xlarge, count: 2048}]}
simulation: {seed: 1, steps: 2, warmup: 1}
YAML
"$DT" -q --json "$tmp/eb.yaml" > "$tmp/eb.json" 2>&1
"$DT" -q --json "$tmp/edp.yaml" > "$tmp/edp.json" 2>&1
if perl -MJSON::PP -e 'local $/; open my $a, "<", $ARGV[0]; open my $b, "<", $ARGV[1];
        my ($e, $d) = (decode_json(<$a>)->{clusters}[0], decode_json(<$b>)->{clusters}[0]);
        my ($eb, $db) = ($e->{breakdown_s}, $d->{breakdown_s});
        exit !($e->{bottleneck_detail} =~ /^expert-all-to-all-bound: / && $e->{bottleneck} eq "network" &&
               $db->{ep_comm} > $db->{compute} && $db->{dp_comm} > $db->{ep_comm} &&
               $d->{bottleneck_detail} !~ /^expert-all-to-all-bound/)' "$tmp/eb.json" "$tmp/edp.json"; then
    echo "ok - advice: expert-all-to-all-bound where the all-to-alls are the step's largest part, not where the data-parallel communication is"
else
    echo "FAIL - advice: expert-all-to-all-bound where the all-to-alls are the step's largest part, not where the data-parallel communication is"
fi
"$DT" -q scenarios/llm-405b-long-context.yaml > "$tmp/lc.txt" 2>&1
if grep -q "^Pipeline: 128x-p5en: tp 8 x pp 8 x cp 16 x dp 1, 16 micro-batches of 1 a step" "$tmp/lc.txt"; then
    echo "ok - advice: llm-405b-long-context: the layout reads tp x pp x cp x dp"
else
    echo "FAIL - advice: llm-405b-long-context: the layout reads tp x pp x cp x dp"
fi

# ---- what a GPU holds, in the text (docs/output.md "Memory:") ---------------
# Each feasible cluster of a language model says what a GPU holds against what
# it may use: within it, and its parts add up to it unless the optimizer's step
# is the peak (which the line then says, with the copy of the gradients).
"$DT" -q scenarios/moe-deepseek-v3.yaml > "$tmp/mem.txt" 2>&1
perl -e '
    my ($n, @bad) = (0);
    while (<>) {
        next unless /^Memory: (\S+): ([\d.]+) of ([\d.]+) GiB usable a GPU.*\(weights ([\d.]+)(?:, their fp8 copies ([\d.]+))?, gradients ([\d.]+), optimizer ([\d.]+), activations ([\d.]+), buffers ([\d.]+)\)(.*)$/;
        $n++;
        my $sum = $4 + ($5 // 0) + $6 + $7 + $8 + $9;
        push @bad, "$1 over" if $2 > $3;
        push @bad, "$1 parts $sum against $2" if $10 !~ /optimizer.s step/ && abs($sum - $2) > 0.35;
        push @bad, "$1 step peak below its parts" if $10 =~ /optimizer.s step/ && $2 + 0.05 < $4 + $6 + $7;
    }
    print(($n == 6 && !@bad ? "ok" : "FAIL") . " - advice: moe-deepseek-v3: a Memory line for each of its 6 clusters, "
          . "within the usable, its parts adding up to it (found $n; @bad)\n");
' "$tmp/mem.txt"
