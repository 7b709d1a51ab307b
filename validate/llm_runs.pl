#!/usr/bin/perl
# llm_runs.pl - dtplan against published LLM training runs
# (validate/published/llm_runs.csv, sources in llm_runs_sources.md).
#
# Each row with a scenario is simulated (build/dtplan --json -q) and the
# predicted step turned into the row's published metric:
#   tokens_per_s_per_gpu   global_batch x seq_len / step / GPUs, the count
#                          Megatron-Bridge, NeMo and torchtitan publish
#                          (tokens of the global batch over the step, a GPU);
#   tflops_per_gpu_mfu     dtplan's model FLOPs utilisation times the GPU's
#                          dense bf16 peak (catalog/gpus.csv): the Llama 3
#                          paper's Table 4 "TFLOPs/GPU" is BF16 MFU times the
#                          H100's peak (validate/published/megatron_sources.md);
#   tflops_per_gpu_causal  tokens/s/GPU times the FLOPs a token as Megatron-LM
#                          counts them, causal attention half the keys
#                          (dtplan's causal_flops_per_token): the "TFLOPS"
#                          of Megatron-Core's own tables (Megatron-MoE-ModelZoo);
#   tflops_per_gpu_nemo    tokens/s/GPU times the FLOPs a token as NeMo 24.x and
#                          25.x count them (nemo_flops_per_token below): the
#                          "TFLOPS / GPU" of NeMo's long-sequence tables.
# Rows with a known gap (context parallelism, ...) have no scenario and are
# listed, not predicted.
#
# Two modes, side by side:
#   catalog  the scenario as written: compute from the catalog alone;
#   carried  for each group of rows (source, model, precision and the
#            source's recipe, sequence length: a measured step is taken at the
#            workload's, its recipe's, which measured_compute cannot change) the first row
#            with a scenario is the input: its published figure is turned
#            into a workload.measured_compute (one micro-batch's step on one
#            GPU of its type, found by the secant method so that dtplan
#            reproduces the row), which the group's other rows then carry
#            (the way validate/megatron.pl carries the 1.7B row).
#
#   perl validate/llm_runs.pl            one line a case, then the summaries
#   perl validate/llm_runs.pl --json     one JSON object: each case's two
#       predictions and errors, and the MAPEs (validate/published.pl puts
#       them in `make validate`'s report)
#   perl validate/llm_runs.pl --check    "ok - " / "FAIL - " lines: every
#       scenario loads and predicts (no accuracy gate), the MAPEs as "# "
#       lines (tests/suite_llm_runs.sh)
#   --json-to FILE (with --check): the --json object written to FILE as
#       well (whole or not at all), from the same runs, so that one pass
#       gives both (tests/suite_llm_runs.sh hands it to validate/published.pl
#       through DT_LLM_RUNS_JSON)
# BUILD picks the build tree (default build).  Cost: one dtplan run a case
# in catalog mode, and up to 12 a group for the carried input's fit.
use strict;
use warnings;
use FindBin;
use File::Temp qw(tempdir);

my $root = "$FindBin::Bin/..";
my $build = $ENV{BUILD} // 'build';
my $dtplan = "$build/dtplan";
$dtplan = "$root/$dtplan" unless $dtplan =~ m{^/};
require "$root/validate/cases.pl";
my $check = grep { $_ eq '--check' } @ARGV;
my $json = grep { $_ eq '--json' } @ARGV;
my ($json_to) = map { $ARGV[$_ + 1] } grep { $ARGV[$_] eq '--json-to' } 0 .. $#ARGV - 1;

# dense bf16 peak a GPU, teraFLOP/s (catalog/gpus.csv)
my %bf16_peak = map { $_->{name} => $_->{bf16_tflops} } read_cases("$root/catalog/gpus.csv");

# The JSON report's first cluster for a scenario file, or undef.
sub run_scenario {
    my ($path) = @_;
    my $j = dtplan_json($dtplan, '--json', '-q', $path);
    return $j && $j->{clusters} && @{$j->{clusters}} ? $j->{clusters}[0] : undef;
}

# FLOPs a token of a row's gated-FFN model (the CSV's shape) as NeMo counts
# them (nemo/utils/flops_formulas.py, llama2/llama3): 3 x 2 x the projections,
# the gated FFN and the logits, and attention's two products over the whole
# sequence, without the causal half the file's later versions apply.  NeMo
# 24.07's table checks the convention: LLAMA2-7B at 4096 tokens, 776 model
# TFLOP/s for 16847 tokens/s, 46.06 GFLOP a token, this count's figure.
sub nemo_flops_per_token {
    my ($c) = @_;
    my ($l, $h, $a, $g, $f, $v, $s) = @$c{qw(layers hidden heads kv_heads ffn_hidden vocab seq_len)};
    return $l * $h * $h * (12 + 12 * $g / $a + 18 * $f / $h + 12 * $s / $h + 6 * $v / ($l * $h));
}

# The published metric a cluster's prediction gives for a row; undef without a step.
sub predict {
    my ($c, $cl) = @_;
    return undef unless $cl && $cl->{step_time_s};
    my $step = ref $cl->{step_time_s} ? $cl->{step_time_s}{mean} : $cl->{step_time_s};
    return undef unless $step && $step > 0;
    return $cl->{mfu} * $bf16_peak{$c->{gpu}} if $c->{metric} eq 'tflops_per_gpu_mfu';
    return $c->{global_batch} * $c->{seq_len} / $step / $c->{gpus} * $cl->{causal_flops_per_token} / 1e12
        if $c->{metric} eq 'tflops_per_gpu_causal';
    return $c->{global_batch} * $c->{seq_len} / $step / $c->{gpus} * nemo_flops_per_token($c) / 1e12
        if $c->{metric} eq 'tflops_per_gpu_nemo';
    return $c->{global_batch} * $c->{seq_len} / $step / $c->{gpus};
}

my $tmp = tempdir('llm_runs.XXXXXX', DIR => $ENV{DT_TEST_OUT} // '/tmp', CLEANUP => 1);

# The prediction of a row's scenario with the measured_compute mapping $mc
# put first under workload:.
sub predict_measured {
    my ($c, $mc) = @_;
    my $f = scenario_with("$root/$c->{scenario}", 'workload', "  measured_compute: $mc\n", $tmp);
    return defined $f ? predict($c, run_scenario($f)) : undef;
}

sub mc_map {
    my ($c, $s) = @_;
    return sprintf('{gpu: %s, step_s: %.6g, batch: %d, recompute: %s}',
                   $c->{gpu}, $s, $c->{micro_batch}, $c->{recompute});
}

# The measured step (s) that makes dtplan reproduce the input row, or undef:
# with f(x) = log(predicted / published) at step_s = x (falling as x grows,
# flat where communication hides the compute), x is bracketed by factors of
# 4 from 1 s, then found by false position on log x (the Illinois variant:
# a few dtplan runs where the step is near linear in x).
sub fit_measured {
    my ($c) = @_;
    my $f = sub { my $p = predict_measured($c, mc_map($c, exp $_[0]));
                  return defined $p && $p > 0 ? log($p / $c->{published}) : undef; };
    my ($a, $fa) = (0, undef);
    $fa = $f->($a);
    return undef unless defined $fa;
    my $dir = $fa > 0 ? log(4) : -log(4);
    my ($b, $fb) = ($a, $fa);
    for (1 .. 12) {
        ($a, $fa) = ($b, $fb);
        $b += $dir;
        $fb = $f->($b);
        return undef unless defined $fb;
        last if ($fa > 0) != ($fb > 0);
    }
    return undef if ($fa > 0) == ($fb > 0);
    my $side = 0;
    for (1 .. 40) {
        my $x = ($a * $fb - $b * $fa) / ($fb - $fa);
        my $fx = $f->($x);
        return undef unless defined $fx;
        return exp $x if abs($fx) < 1e-4;
        if (($fx > 0) == ($fb > 0)) {
            ($b, $fb) = ($x, $fx);
            $fa /= 2 if $side == -1;
            $side = -1;
        } else {
            ($a, $fa) = ($x, $fx);
            $fb /= 2 if $side == 1;
            $side = 1;
        }
        return exp $x if abs($b - $a) < 1e-6;
    }
    return undef;
}

my @cases = read_cases("$root/validate/published/llm_runs.csv");
my (%input_of, %input_case, %fit);
for my $c (@cases) {
    next unless $c->{scenario};
    $c->{key} = join '/', @$c{qw(group model precision precision_published seq_len)};
    $c->{cl} = run_scenario("$root/$c->{scenario}");
    $c->{pred} = predict($c, $c->{cl});
    $c->{err} = 100 * ($c->{pred} / $c->{published} - 1) if defined $c->{pred};
    if (!exists $input_of{$c->{key}}) {
        $input_of{$c->{key}} = $c->{case};
        $input_case{$c->{key}} = $c;
        $c->{role} = 'input';
        $fit{$c->{key}} = fit_measured($c);
        next;
    }
    $c->{role} = 'carried';
    my $s = $fit{$c->{key}};
    next unless defined $s;
    $c->{cpred} = predict_measured($c, mc_map($input_case{$c->{key}}, $s));
    $c->{cerr} = 100 * ($c->{cpred} / $c->{published} - 1) if defined $c->{cpred};
}

# MAPE and the largest |error| of a list of errors, as text.
# The errors of rows that have one: key err (from the catalog alone) or
# cerr (carried from a first row).
sub errs {
    my ($key, @rows) = @_;
    return map { $_->{$key} } grep { defined $_->{$key} } @rows;
}

sub summary {
    my (@e) = @_;
    return 'no cases' unless @e;
    my ($sum, $max) = (0, 0);
    for (@e) { $sum += abs; $max = abs if abs > $max; }
    return sprintf('%d cases, MAPE %.1f%%, max |error| %.1f%%', scalar @e, $sum / @e, $max);
}

# A calibration input (its known_gap says so) runs and prints, but a
# constant of the model was set from it: no error of it counts.
my $is_input = sub { $_[0]{known_gap} =~ /^calibration input/ };
my @pred = grep { $_->{scenario} && !$is_input->($_) } @cases;
# Mixtures of experts under expert parallelism (ep > 1) are a set of their
# own, with issue 38's targets (MAPE 10%, none past 15%): the "all" figures
# and their guard are the dense runs'; the MoE runs print and guard apart.
my $is_moe = sub { ($_[0]{ep} || 1) > 1 };
my @dense = grep { !$is_moe->($_) } @pred;
my @moe = grep { $is_moe->($_) } @pred;
# The --json object of the runs.
sub json_text {
    require JSON::PP;
    my @out;
    for my $c (@cases) {
        my %r = (case => $c->{case}, group => $c->{group}, gpu => $c->{gpu}, gpus => $c->{gpus} + 0,
                 precision => $c->{precision}, source => $c->{source}, unit => $c->{unit},
                 published => $c->{published} + 0, known_gap => $c->{known_gap},
                 scenario => $c->{scenario});
        $r{predicted} = 0 + sprintf('%.4g', $c->{pred}) if defined $c->{pred};
        $r{error_pct} = 0 + sprintf('%.1f', $c->{err}) if defined $c->{err};
        $r{role} = $c->{role} if $c->{role};
        $r{carried_from} = $input_of{$c->{key}} if $c->{role} && $c->{role} eq 'carried';
        $r{carried_predicted} = 0 + sprintf('%.4g', $c->{cpred}) if defined $c->{cpred};
        $r{carried_error_pct} = 0 + sprintf('%.1f', $c->{cerr}) if defined $c->{cerr};
        push @out, \%r;
    }
    return JSON::PP->new->canonical->encode({
        cases => \@out,
        catalog_alone => summary(errs('err', @dense)),
        carried => summary(errs('cerr', @dense)),
        moe_catalog_alone => summary(errs('err', @moe)),
        moe_carried => summary(errs('cerr', @moe)) }) . "\n";
}
if ($json) {
    print json_text();
    exit 0;
}
if (defined $json_to) {
    my $tmp = "$json_to.tmp.$$";
    open my $fh, '>', $tmp or die "llm_runs.pl: $tmp: $!\n";
    print $fh json_text();
    close $fh or die "llm_runs.pl: $tmp: $!\n";
    rename $tmp, $json_to or die "llm_runs.pl: $json_to: $!\n";
}
if ($check) {
    for my $c (@pred) {
        my $ok = defined $c->{pred} && $c->{pred} > 0;
        printf "%s - llm runs: %s loads and predicts%s\n", $ok ? 'ok' : 'FAIL', $c->{case},
            $ok ? sprintf(' (%.4g %s, published %s)', $c->{pred}, $c->{unit}, $c->{published}) : '';
    }
    # Issue 36's per-case target: within 20% from the catalog alone, or a
    # known_gap that says why not (xfail); a marked case back within 20%
    # loses its mark.
    for my $c (grep { defined $_->{err} } @pred) {
        my $in = abs($c->{err}) <= 20;
        my $what = sprintf('llm runs: %s from the catalog alone %+.1f%%', $c->{case}, $c->{err});
        if ($c->{known_gap} ne '') {
            print $in ? "FAIL - $what: within 20%, take the known-gap mark off\n"
                      : "xfail - $what [known gap: $c->{known_gap}]\n";
        } else {
            printf "%s - %s%s\n", $in ? 'ok' : 'FAIL', $what, $in ? ', within 20%' : ', past 20%';
        }
    }
    # Each row named -A whose twin -B is predicted too, as [row, twin, predicted ratio,
    # published ratio].
    my %by = map { $_->{case} => $_ } @pred;
    my $twins = sub {
        my ($a, $b) = @_;
        my @out;
        for my $c (grep { $_->{case} =~ /-\Q$a\E$/ } @pred) {
            (my $twin = $c->{case}) =~ s/-\Q$a\E$/-$b/;
            my $t = $by{$twin};
            next unless $t && defined $c->{pred} && defined $t->{pred} && $t->{pred} > 0;
            push @out, [$c->{case}, $twin, $c->{pred} / $t->{pred}, $c->{published} / $t->{published}];
        }
        return @out;
    };
    # Dropless against forced-balance routing (issue 38: each published
    # ratio within 0.05): each -dropless row whose -forced twin is predicted
    # too; the first pair is the input of the default imbalance, not checked.
    for my $t ($twins->('dropless', 'forced')) {
        my ($c, $twin, $p, $q) = @$t;
        printf "%s - llm runs: %s over %s %.3f, published %.3f (within 0.05)\n",
            abs($p - $q) <= 0.05 ? 'ok' : 'FAIL', $c, $twin, $p, $q;
    }
    # One dispatcher against another on the same run (issue 38's DeepEP option): each -deepep row
    # over its -hybridep twin, the predicted ratio within 10% of the published one (NVIDIA's
    # DeepSeek-V3 guide on 256 GB200: 829.93 over 943.56, 0.880; at one NVLink rate for both
    # dtplan gave 1.00).
    for my $t ($twins->('deepep', 'hybridep')) {
        my ($c, $twin, $p, $q) = @$t;
        printf "%s - llm runs: %s over %s %.3f, published %.3f (%+.1f%%, within 10%%)\n",
            abs($p / $q - 1) <= 0.10 ? 'ok' : 'FAIL', $c, $twin, $p, $q, 100 * ($p / $q - 1);
    }
    # One GPU against another on the same model, precision, release and GPU count (issue 39: the
    # GB200 : B200 per-GPU ratio within 10% on every pair; GB300 : GB200 too): the
    # predicted ratio over the published one.  A pair with a known-gap row is xfail.
    my %pair_gap = (
        'mb2604-llama3-70b-gb300-nvfp4/mb2604-llama3-70b-gb200-nvfp4' =>
            'NVFP4 at each GPU\'s own published 4-bit share (gpus.csv fp4_eff: the GB300\'s 0.5703 and the '
            . 'GB200\'s 0.7487 from Microsoft\'s cuBLASLt sweeps, 8,555 against 7,487 TFLOP/s, 1.14x where '
            . 'the two runs differ 1.50x): the GB200 row +17.3%, the GB300 one -3.0%',
        'mlperf51-llama2-70b-lora-gb300-8-nvfp4/mlperf51-llama2-70b-lora-gb200-8-nvfp4' =>
            'as the 70B Megatron-Bridge NVFP4 pair (the sweeps\' 4-bit rates 1.14x apart where the two '
            . 'runs differ 1.38x): the GB300 row -17.9%, the GB200 one -4.8%');
    my %pair;
    for my $c (grep { $_->{gpu} =~ /^(GB300|GB200|B200)$/ && defined $_->{pred} } @pred) {
        $pair{join '|', $c->{framework}, $c->{model}, $c->{precision_published}, $c->{seq_len},
                   $c->{gpus}}{$c->{gpu}} = $c;
    }
    for my $k (sort keys %pair) {
        for my $g (['GB200', 'B200'], ['GB300', 'GB200']) {
            my ($a, $b) = @{$pair{$k}}{@$g};
            next unless $a && $b && $b->{pred} > 0 && $b->{published} > 0;
            my $p = $a->{pred} / $b->{pred};
            my $q = $a->{published} / $b->{published};
            my $off = 100 * ($p / $q - 1);
            my $what = sprintf('llm runs: %s over %s per GPU %.2f, published %.2f (%+.1f%%, within 10%%)',
                               $a->{case}, $b->{case}, $p, $q, $off);
            if (abs($off) <= 10) {
                print $pair_gap{"$a->{case}/$b->{case}"} ? "FAIL - $what: take the pair's known-gap mark off\n"
                                                         : "ok - $what\n";
            } elsif (my $why = $pair_gap{"$a->{case}/$b->{case}"}) {
                print "xfail - $what [known gap: $why]\n";
            } elsif ($a->{known_gap} ne '' || $b->{known_gap} ne '') {
                print "xfail - $what [a row's known gap]\n";
            } else {
                print "FAIL - $what\n";
            }
        }
    }
    # an input whose group has no other row carries nothing: its fit is not needed
    my %rows;
    $rows{$_->{key}}++ for grep { $_->{key} } @pred;
    my @in = grep { $_->{role} eq 'input' && $rows{$_->{key}} > 1 } @pred;
    my $nfit = grep { defined $fit{$_->{key}} } @in;
    printf "%s - llm runs: carried mode fits %d of %d group inputs\n",
        $nfit == @in ? 'ok' : 'FAIL', $nfit, scalar @in;
    printf "# llm runs, catalog alone: %s\n", summary(errs('err', @dense));
    printf "# llm runs, mixtures of experts, catalog alone: %s\n",
        summary(errs('err', @moe));
    printf "# llm runs, carried from a first row: %s (inputs excluded)\n",
        summary(errs('cerr', @dense));
    # A guard against regressions, not the target (issue 36: MAPE 10%, none past 20%):
    # the MAPEs as they stood when the model or the set last changed, with a tenth of a
    # point to spare for the last digit.  A change to the model that beats them lowers
    # these.  Context parallelism added 6 cases (53), among them NeMo 24.07's 8B at cp 2
    # (+25%) and the Llama 3 paper's 131K stage (+11%): 6.7% became 6.85%.  torchtitan's
    # December 2024 tables then joined whole (9 cases, 62: Table 4's AsyncTP row, Table
    # 5's interleaved row, Table 2's and Table 6's context parallelism, whose cp 2 to 8
    # rows but one are 28% to 46% fast, known gaps; Table 5's rows now run AsyncTP as
    # the table says): 9.5%.  workload.recompute_layers made torchtitan's two A100
    # "selective layer" rows expressible (-1.1%, -4.0%; 64 cases): 9.3%, carried 5.5%.
    # GB200's 152 SMs (it had none: the tile waves were not modelled on it) then gave
    # 9.0%, carried 5.1%, MoE 29.5% (the 405B FSDP row +22.6% to +13.8%).  The table's
    # four dense DGX-GB300 rows joined (68 cases), 7% to 21% too slow (GB300 run as a
    # GB200 with more memory): 9.3%, carried 6.0%.  NeMo's two long-sequence tables
    # joined (85 cases): LLAMA2-7B on H100 in the 24.03 container, 4K to 1M at cp 1 to 32,
    # 17% to 66% fast (FlashAttention-2's rate would give -5.9% to +4.7%: the gap is the
    # attention kernel's rate, not the ring), and LLAMA3-8B on B200 in 25.04, +10% to
    # -21% (Blackwell's attention at the H100's FlashAttention-2 share): 13.2%.
    # Blackwell's cuDNN attention at NVIDIA's published cuDNN 9.22 rates, 1.6 times
    # the FlashAttention-2 share it had, and Blackwell's GEMM rates taken from the
    # best shape down to sustained as the A100's and H100's are (x 0.905): the GB300
    # rows -13%, -13%, -21%, -7% became -2%, -3%, -15%, 0%; Megatron-Bridge's other
    # Blackwell rows moved to -7% to +17% (7.0% to 7.6% on its 17 dense Blackwell
    # rows), and NeMo 25.04's B200 long sequences, run a year before those cuDNN rates,
    # from +10%..-21% to +21%..+33%: 14.5%; MoE 30.5%.  Blackwell's fp8 products at
    # 0.962 of their peak's share, MXFP8's at 1.051x and the casts at 1.648x their
    # bytes' time (Transformer Engine's B300 GEMM table): 14.4%, MoE 30.2%.  torchtitan's
    # context-parallel rows as torch runs them (cp_comm torch, the repeated KV heads:
    # cp_kv_repeat): the 405B rows +31%, +28%, +46% to +26%, +25%, +40%: 14.2%.  The
    # table's four NVFP4 rows joined (89 cases: +7%, -14%, -17%, -7%): 14.1%; the carried
    # groups now split by the source's recipe as well (a measured_compute carries its own
    # recipe, which it cannot change: NVFP4 and MXFP8 rows carried from an FP8 row came out
    # 26% to 43% slow): carried 30 cases, 6.5%.  AMD's MLPerf v5.1 Llama 3.1 8B on MI355X
    # (+2.6%) and MLPerf v5.0 and v5.1's 13 Llama 3.1 405B results on GB200, GB300 and B200
    # joined (103 cases; -22.6% to +17.8%): 13.7%, carried 40 cases, 6.5%.
    # Hopper's attention from measurements and NVIDIA's figures (catalog/flash.c): cuDNN
    # at the published cuDNN 9.19 H200 curve, as Blackwell's, and FlashAttention-2 at
    # PyTorch's kernel as a lent H200 and H100 ran it (the published FlashAttention-2 bars
    # had stood 5% to 14% above it): torchtitan's rows 2 to 6 points nearer, NeMo 24.03's
    # long sequences further (+16% to +75%): 13.4%, carried 6.6%, MoE 30.0%.  DualPipe
    # (parallel.pp_schedule) for DeepSeek-V3's report run: -24.6% to -11.1%, MoE 29.4%.
    # NeMo 24.03's and 24.07's H100 rows at FlashAttention-2, as their launcher ran them
    # (NVTE_FUSED_ATTN=0 in its config.yaml from 24.01 to 24.07), not cuDNN: the long
    # sequences +16%..+75% to -10.5%..+1.5%, 24.07's small fp8 models +13%..+23% to
    # -1%..+7%: 9.3%.  Their tensor-parallel overlap as the launcher's configs set it
    # (ub_tp_comm_overlap: GPT-3 20B, Llama 2 70B, Llama 3 70B): +3.5%, -6.9%, -9.2% to
    # +7.3%, +3.1%, -0.7%: 9.2%.  Megatron-Bridge's dense rows at tp > 1 with the
    # userbuffers' overlap their recipes set (CommOverlapConfig(tp_comm_overlap=True), off for
    # NVFP4): the H100 rows -7.5%, -7.6%, -8.6% to +1.1%, +1.2%, +8.2%, GB300's 405B -14.0% to
    # -5.4%, B200's 405B +0.6% and +1.1% to +7.8% and +8.3%: 9.3%, carried 6.0%.  NeMo's own
    # 2025 summary tables joined (116 cases): 25.02 on DGX-B200 (Llama 3 8B +36%, 70B +29%,
    # 405B +21%, GPT-3 175B +7%: that system's early stack, NVIDIA's same 8B run 15% faster
    # by 25.09), 25.04 and 25.07 on DGX-GB200 (8B 0% and +4%/+11%, GPT-3 0%, 70B with FSDP
    # +9% and +8%; the 70B and 405B rows at cp 2 under a pipeline +24% to +50%): 10.2%.
    # The MoE set has its own, as expert parallelism's first cut left it (10 cases of
    # Megatron-Bridge 26.04.01, 48.5%; issue 38's target is 10%).  The cases then took
    # each row's dispatcher, overlap and expert tensor parallelism from its perf recipe,
    # which dtplan now runs, and Qwen3-235B's H100 row became expressible (11): the waits
    # the all-to-all had wrongly kept had hidden compute the model misses, 52.7%; the
    # overlap's 93% and held SMs and the recipes' recompute modules then gave 50.2%.
    # Megatron-MoE-ModelZoo's 13 Qwen3-235B H100 rows joined (11 predicted; two are the
    # inputs of the overlap's share and the default imbalance), the overlap hiding half
    # (from that pair, not the report's 93%): 22 cases, 30.5%.  DeepSeek-V3's report on
    # H800 joined (-37%, DualPipe not modelled): 23 cases, 30.8%; group-limited routing
    # (its 4 groups of 8 a token) then 30.1%, the report's fp8 dispatch 30.0%.
    # Megatron-Bridge 26.08's eight MoE rows (the current page: DeepSeek-V3, GPT-OSS 120B,
    # Qwen3 30B and 235B on GB300 and GB200, MXFP8) joined from their perf recipes, which run
    # HybridEP, the expert-parallel overlap and full-iteration CUDA graphs: Qwen3 -1.7% to
    # +1.7%, DeepSeek-V3 -10.0% and +2.3%, GPT-OSS +29% and +31% (known gap): 31 cases, 24.3%.
    # Sliding windows at NVIDIA's published windowed rates (catalog/flash.c window_eff: a
    # 128-token window's kernel at about a sixth of causal attention's rate): GPT-OSS's five
    # rows 2 to 4 points nearer, 23.7%.
    # Attention in fp8 where the recipes run it (workload.fp8_attention: cuDNN's published
    # fp8 and MXFP8 rates beside its 16-bit ones): DeepSeek-V3 on GB300 -10.0% to -5.4%, the
    # Qwen3 rows within half a point: 23.6%.
    # Megatron-Bridge 26.06's three DGX-B300 MoE rows and its H100 Qwen3-30B row joined from
    # their perf configs (35 cases): Qwen3-30B on B300, with full-iteration graphs and the fused
    # grouped MLP, +2.1%; the three without them +21% (DeepSeek-V3, attention-only graphs),
    # +97% (GPT-OSS, unfused) and +82% (H100, no graphs), known gaps: 26.7%.
    # NeMo's 2025 tables' four Mixtral rows joined (39 cases, Source 10): 8x7B on DGX-GB200
    # (25.04) +8.7%, on DGX-B200 (25.02) +47% (that system's early stack), 8x22B at 64K
    # tokens, cp 8, one layer a pipeline chunk +37% (GB200) and +62% (B200): 27.9%.
    # The host's floor on a MoE layer's pass without CUDA graphs (workload.cuda_graphs,
    # planner/resolve_host.c: 9.0 ms, from 26.04.01's Qwen3-30B H100 row, now a calibration
    # input; 38 cases): Qwen3-235B on B200 +71% to +1.7%, 26.06's Qwen3-30B H100 row +82% to
    # +1.2%, ModelZoo's tp 4 x pp 8 and tp 2 x pp 32 rows +66% and +38% to -11.7% and
    # +20.5%, GPT-OSS on H100 +65% to +53%: 20.4%.
    # The experts' epilogue as TEGroupedMLP runs it (workload.expert_mlp: grouped; GPT-OSS's
    # clamp and second product's biases in kernels of their own, catalog/ops.c) on the
    # 26.04.01 and 26.06 GPT-OSS rows: GB200 +77% to +42%, B200 +106% to +67%, H100 +54% to
    # +39%, B300 +97% to +54%: 16.9%, carried 9.0%.
    # DGX Cloud's MoE tables joined (Source 15, 35 rows, 73 cases): Grok-1 314B on H100 (NeMo
    # 1, 24.11 and 24.12; NeMo 25.04) and GB200 +4% to +27%, Llama 4 Maverick on GB200 +32% to
    # +46% and on H100 +11% and +26%, DeepSeek-V3 in bf16 on H100 +30% and +35% and on GB200
    # 3.2x too fast (known gaps: NVIDIA's April-2025 containers on GB200): 27.6%, carried 13.2%.
    # A sliding window in fp8 at the rates cuDNN's benchmark publishes for it (catalog/flash.c
    # win_ms: its backward does not keep to the window): 26.08's GPT-OSS rows +27.3% and
    # +25.4% to +19.1% and +17.0%: 27.3%.
    # Three later DGX Cloud runs from their READMEs' example output joined (76 cases):
    # DeepSeek-V3 on 1,024 H100 in NeMo 25.07.01 +6.8% (the 25.04.01 rows +30%, +35%), on
    # 256 GB200 in Megatron-Bridge 25.09 +28.9% (25.04.01's 3.2x: 3.1x faster there),
    # Qwen3-235B on 256 H100 in 25.11 +13.8%: 26.9%.
    # DeepSeek-V3's multi-token-prediction module (models.csv mtp_layers 1) on each recipe's
    # explicit pipeline layout (parallel.pp_layers): Megatron-Bridge 26.04.01 GB200 +11.8% to
    # +7.3%, B200 -3.7% to -11.3%, 26.06 B300 +21.9% to +13.2%, 26.08 GB300 -2.7% to -5.0%,
    # GB200 +3.0% to -0.8%; DGX Cloud's 25.04.01 H100 rows +35.3% and +30.1% to +6.8% and
    # +15.3%; the report under DualPipe, whose stages' layers are not published, -11.6% to
    # -25.7% (known gap): 26.0%, carried 18.6% (the April GB200 rows carried from the H100
    # one).
    # fp8's casts around the experts over every row the rank's experts take (they counted
    # one expert's), TEGroupedMLP's in full and the fused grouped MLP's epilogue casts free
    # on Blackwell under MXFP8; the stacks that ran TEGroupedMLP marked expert_mlp: grouped:
    # 26.04.01's Qwen3-30B +38% and +31% to +17.6% and +11.6% (marks off), Qwen3-235B GB200
    # +14.4% to +4.7%, 26.06's GPT-OSS B300 +54% to +37%, 26.08's fused Qwen3 and DeepSeek-V3
    # rows -2.0%..+1.3% to -11.5%..-4.8%: 25.3%, carried 18.6%.
    # Expert tensor parallelism's gather and reduce-scatter around the experts (planner/
    # resolve_ep.c etp_gather_s): Grok-1's DGX Cloud rows at etp 4, NeMo 1 H100 bf16 +14% to
    # +8%, fp8 +23%..+26% to +14%..+17% (marks off), GB200 +10%..+20% to +3%..+9%: 23.4%,
    # carried 18.5%.
    # A MoE layer without shared experts runs no dense feed-forward pair over tp in the
    # simulator (sim_comm.tp_moe_share): ModelZoo's Qwen3-235B 1 to 4 points nearer, Grok-1
    # 1 to 2 further: 23.7%, carried 18.5% (the guard 23.8: the simulator's phantom pair
    # had been helping those rows; the model is the more faithful for it).
    # DualPipe hides its all-to-alls whole, as its report says (DUALPIPE_HIDDEN, planner/
    # resolve_ep.c): the report's run -27.3% to -2.4%: 23.4%, carried 18.5%.
    # The shared experts' first product casts in full (the MoE layer's norm is a module of
    # its own): DeepSeek-V3 and Llama 4 within 0.3 points, Llama 4's H100 fp8 row +20.1% to
    # +19.8% (mark off): 23.4%.
    # MLPerf Training's llama2_70b_lora (LoRA fine-tuning, workload.lora_rank) joined, 14
    # rows of v5.0 and v5.1 on MI300X, MI325X, MI355X, H200, B200, GB200 and GB300 (130
    # cases), with AMD's published fused-attention rates on CDNA 3 and 4 (catalog/flash.c
    # flash_share_amd; AMD's attention had run as two GEMMs): v5.1's NVIDIA-family fp8 rows
    # within 6%, its NVFP4 rows -1.3% (B200), -6.5% (GB200) and -22.1% (GB300, known gap:
    # NVFP4 on Blackwell Ultra), AMD's +15.4%, +8.0% and +0.6%, v5.0's NeMo 25.04 rows +24%,
    # +23% (known gaps: that stack) and +14%; the MI355X Llama 3.1 8B row +2.6% to +5.6%:
    # 10.1%, carried 6.6% (AMD's group carries from MI300X, whose row alone recomputes).
    # v4.0 and v4.1's six H100 and H200 LoRA rows (NeMo 24.04 and 24.09; 136 cases): one
    # node +12.5% to +13.5% (tp 4 with the userbuffers' overlap), H200 +9.3%, 64 H100 at
    # tp 4 x cp 2 +19.3% (v4.1) and +42.2% (v4.0, a known gap: v4.1 ran the same layout 18%
    # faster): 10.5%, carried 6.8%.
    # Megatron-Bridge 26.06's five LoRA rows (Llama 3 70B on 8 GB300, GB200 and H100, FP8-CS
    # and MXFP8, pipelines of 2 and 4 with 20 chunks a stage, LoRA on QKV at rank 32; 141
    # cases): -8.0% to +1.9% (4.0%): 10.3%, carried 6.9%.
    # A pipeline charges the layers' waits beyond their compute to the chunks that hold those
    # layers (sim/pp.c: expert parallelism's all-to-alls and the host's floor to the MoE
    # layers, context parallelism's exchanges to every layer) and none to the output layer
    # and loss, whose share had been taken of the compute and the waits together: where the
    # all-to-alls across nodes were as long as the compute, the last stage's head had counted
    # twice its time.  Megatron-Bridge 26.04.01's DeepSeek-V3 B200 row -13.3% to -4.9% (its
    # GB200 : B200 pair within 10%, mark off), Qwen3-235B H100 -10.0% to -3.1%; the rows the
    # inflated head had been slowing move faster: DGX Cloud's April-2025 DeepSeek-V3 H100 rows
    # +6.8% and +15.3% to +34.5% and +27.5%, ModelZoo's tp 2 x pp 32 row +22% to +40%, two
    # Grok-1 fp8 rows past 20% by a point (marked): 24.7%, carried 12.7% (from 18.5%).  The
    # guard moves with it (24.8): the head had been standing in for costs those stacks pay
    # that the model does not have; the model is the more faithful for it.
    # HybridEP's kernels on the 32 SMs Megatron-Bridge's perf scripts give every HybridEP run
    # (parallel.ep_sms; the compute beside the overlapped all-to-alls slower for it, on GB200,
    # whose SMs are known): 26.08's GPT-OSS on GB200 +17.0% to +14.9%, Qwen3 and DeepSeek-V3
    # there 2 to 3 points slower (-5.7% to -14.3%); issue 38's own set (26.08's eight rows and
    # the report) 9.7%, none past 15%: 24.8%, carried 12.7% (the guard 24.9).
    # The all-to-alls as flows on the links and NICs beside the other traffic, without a
    # pipeline (sim/ep.c): no longer waits inside the compute, they no longer take the
    # compute's jitter (the slowest of the ranks' multiplier), so the 22 non-pipelined MoE
    # rows came 0.1 to 1.4 points faster (contention with the dense part's reductions moved
    # none by more); DGX Cloud's Llama 4 H100 fp8 row +19.8% to +20.6% (marked), 26.08's
    # GPT-OSS on GB200 +14.9% to +15.4%: 24.9%, carried 12.6% (the guard 25.0).
    # Megatron-Bridge 26.02's seven MoE rows on B200 and H100 (group megatron-bridge-moe-2602,
    # the release the issue names, H100 and B200, that the 26.04.01 archive had left out):
    # Qwen3-235B +12.6% (B200) and +1.6% (H100); DeepSeek-V3 +47.5%, GPT-OSS +24.0% and
    # +36.9%, and Qwen3-30B at micro-batch 1 2.9x (scoped graphs, no floor taken) and 3.4x
    # (H100, not found) too fast, all five marked: 83 cases, 29.4%, carried 12.6% (the
    # guard 29.5: rows added, no prediction changed).
    # Primus's MoE package on one MI355X node (group primus-moe-mi355x: DeepSeek-V2-Lite,
    # the baseline at micro-batch 1 to 12 and the optimized run at 14, AMD's own figure):
    # the baselines +50% to +68% (the legacy grouped GEMM and ROCm's eager launches, marked),
    # the optimized run +18.4%: 89 cases, 30.9%, carried 13.5% (the guard 30.9: rows
    # added, no prediction changed).  Its DeepSeek-V2 on 4 MI355X nodes (pp 4, ep 8): the
    # 1F1B baseline 2.5x and the optimized run 2.1x too fast (marked: 20 local experts a
    # GPU in the legacy grouped GEMM, eager on ROCm): 91 cases, 33.1% (the guard 33.1: rows
    # added, no prediction changed).
    # cuDNN's attention by release on Blackwell (workload.attention cudnn_9.10 and
    # cudnn_9.13, catalog/flash.c: NVIDIA's B200 curves of cuDNN 9.10.2 and 9.13.1,
    # cudnn-frontend@9793df5 and @0b1577c) for the containers before 2026 (NeMo 25.02 to
    # 25.09, DGX Cloud's 25.04 recipes, MLPerf v5.0: 9.10; 25.11 and MLPerf v5.1's ngc25.09
    # builds: 9.13): the dense set 9.9% to 9.2%, 27 past 20% to 22, carried 5.7% to 6.0%; the
    # MoE set 33.1% to 32.0% (the guards 9.2 and 32.1; band.c's Blackwell fp8 cells 11.5%,
    # 15.9%, 25.6% to 9.5%, 14.2%, 23.5%).
    # Blackwell's sustained GEMM rate from a Blackwell sweep (catalog/gpus.csv GB200: Azure's
    # cuBLASLt fp8 sweep on an ND GB200 v6, its largest size; B200 the same die's ratio of that
    # to the best shape, in place of the A100's and H100's 0.905): the dense set 9.2% to 7.9%,
    # 22 past 20% to 10, carried 6.0% to 5.2%, the MoE set 32.0% to 29.7% (band.c's Blackwell
    # fp8 cells 9.5%, 14.2%, 23.5% to 7.2%, 10.6%, 20.5%).
    # NVFP4's products at the share of the fp4 peak a GPU's own 4-bit sweep reaches (gpus.csv
    # fp4_eff: the GB200's cuBLASLt sweep 0.7487, torchao's B200 squares 0.5967; the GB300 at the
    # GB200's, assumed), the 1.81x fp8 ratio elsewhere: the dense set 7.9% to 7.6%, carried 5.2%
    # to 5.0% (band.c's Blackwell fp8 cells 7.2% and 10.6% to 6.4% and 9.8%).  The GB300's own
    # sweep (a fork of Microsoft's guide: 0.5703) in place of the assumption: 7.6% to 7.5%,
    # carried 5.0% to 5.1%, two GB300:GB200 NVFP4 pairs out (marked), MLPerf's GB300 405B in.
    # The flex dispatchers' sends a rank, not a copy (planner/resolve_ep.c ranks_reached:
    # DeepEP and HybridEP send a token once to each rank of its experts, as their receive
    # buffers show): Megatron-Bridge 26.08's Qwen3-30B on GB200 -17.7% to -11.2%, GB300
    # -11.2% to -5.4%, its DeepSeek-V3 and Qwen3-235B rows 1 to 2 points nearer, GPT-OSS
    # 0.2 to 1.0 further; issue 38's own set 11.0% to 9.1%, none past 15%.  The rows whose
    # exposed all-to-alls had stood in for costs the model lacks came faster: 26.04.01's
    # Qwen3-30B on GB200 +13.5% to +23.6% and B200 +7.4% to +16.8% (scoped graphs at 16
    # local experts, resolve_host.c), 26.06's DeepSeek-V3 on B300 +11.9% to +19.7%,
    # Primus's optimized DeepSeek-V2-Lite +18.4% to +26.6%: 91 cases, 29.5% to 30.0% (the
    # guard 30.1).  MLPerf Training v6.0's six DeepSeek-V3 runs joined (group mlperf-v6.0-dsv3:
    # 256 and 512 GB300, 512 to 8,192 GB200, HybridEP in the NVLink domain, the checkpoint's
    # own routing): -26.8%, -25.9% (GB300, at the default dropless imbalance), -11.6%, -6.4%,
    # +6.0%, +28.2% (GB200 at 512 to 8,192: a strong-scaling gap, marked): 97 cases, 29.2%,
    # carried 14.0% (the group carries from GB300 to GB200); the guard 29.3.  The experts'
    # gradients on their own expert-data-parallel group's shape (planner/resolve_ep.c
    # resolve_ep_grad_scale): those MLPerf GB200 rows -12.4%, -9.1%, +1.2%, +18.4% (mark off),
    # Llama 4 Maverick GB200 fp8 +22%, NeMo 25.02's Mixtral B200 +26.5% and +35.4%, a Grok-1
    # fp8 row +17.7% (mark off), 26.08's DeepSeek-V3 GB300 -13.5% (issue 38's own set 9.6%):
    # 97 cases, 28.5%, carried 13.4%; the guard 28.6.  NVIDIA's DeepSeek-V3 guide on 256 GB200
    # joined (group mcore-dsv3-gb200-guide: HybridEP +6.1% and +9.1%, DeepEP +24.0% marked, no
    # prediction changed): 102 cases, 28.0%, carried 13.1%; the guard 28.1.  The flex
    # dispatchers at their published kernel rates over NVLink (planner/resolve_ep.c
    # resolve_ep_nvl_share: HybridEP 0.985 to 0.896 of NCCL's rate on a GB200 rack from 8 to 36
    # ranks, 0.871 on an H100 node; DeepEP 0.825 within 8 ranks and about half past 16): the
    # guide's DeepEP row +24.0% to +6.8% (mark off), its HybridEP rows +6.1%/+9.1% to
    # +4.4%/+7.3%, 26.08's overlapped rows 0.2 to 1.6 points slower (issue 38's own set 9.7%,
    # none past 15%): 27.8%, carried 12.9%; the guard 27.9.  The overlap's hidden share re-fitted
    # to its calibration pair (RESOLVE_EP_HIDDEN 0.50 to 0.56: ModelZoo's 1.127x, 1.104x at 0.50,
    # 1.128x now): issue 38's own set 9.1%, max 14.7%; 27.8%, carried 12.7%.  MT-NLG's
    # three throughput runs joined (group mt-nlg: DeepSpeed's pipeline engine with Megatron-LM's
    # tensor slicing on 2,240 to 3,360 A100, +28.2% to +33.2% from the catalog alone, marked;
    # carried from the first +1.1% and +4.0%; no prediction changed): 187 cases, 7.8%, carried
    # 5.0%; the guard 7.9.  MosaicML's llm-foundry benchmark tables joined (35 rows, groups
    # mosaic-*: Composer with PyTorch FSDP on 8 to 512 H100 and A100 40GB and 80GB, no prediction
    # changed): the A100 rows within 7% but a 70B row at micro-batch 2 (+38.6%, marked), the
    # October 2023 H100 rows within 8% but 13B at micro-batch 2 (+25.6%, +24.3%, marked), the
    # January 2024 large-scale H100 rows +16% to +19% at 128 GPUs and +23% to +28% at 512 without
    # activation checkpointing (marked), within 10% with it: 222 cases, 8.0%, carried 5.0%; the
    # guard 8.1.  The January 2024 table's rows reduce their gradients in fp32 (FSDP mixed
    # precision DEFAULT, as the table prints it; the sweep's PURE never reached the runs): the
    # group 13.2% to 12.9%, the whole 8.0%.
    my %guard = (catalog => [8.1, [errs('err', @dense)]],
                 carried => [5.2, [errs('cerr', @dense)]],
                 'MoE catalog' => [27.9, [errs('err', @moe)]]);
    for my $m (sort keys %guard) {
        my ($lim, $e) = @{$guard{$m}};
        my $mape = @$e ? (eval { my $t = 0; $t += abs for @$e; $t } / @$e) : 0;
        printf "%s - llm runs: %s MAPE %.1f%%, no worse than %.1f%% (the target is 10%%)\n",
            $mape <= $lim ? 'ok' : 'FAIL', $m, $mape, $lim;
    }
    # Issue 38's own set: the current Megatron-Bridge page's MoE rows (26.08: DeepSeek-V3,
    # GPT-OSS 120B, Qwen3 30B and 235B on GB300 and GB200) and DeepSeek-V3's report, from
    # the catalog alone: MAPE 10% at most, none past 15%.
    my @own = grep { defined $_->{err} && $_->{group} =~ /^(megatron-bridge-moe-2608|deepseek-v3-report)$/ }
              @pred;
    {
        my ($t, $max) = (0, 0);
        for (@own) { $t += abs $_->{err}; $max = abs $_->{err} if abs $_->{err} > $max; }
        my $mape = @own ? $t / @own : 0;
        printf "%s - llm runs: issue 38's own set (Megatron-Bridge 26.08's MoE rows, DeepSeek-V3's "
             . "report): %d cases, MAPE %.1f%% (target 10%%), max |error| %.1f%% (none past 15%%)\n",
            @own >= 9 && $mape <= 10 && $max <= 15 ? 'ok' : 'FAIL', scalar @own, $mape, $max;
    }
    # planner/band.c's errors for a transformer (llm_err: generation, precision,
    # context, kind) are these runs' MAPEs: each cell of five runs or more within half
    # a point of the table's figure, so that a band moves when the validation does.
    my %cc = map { $_->{name} => $_->{compute_capability} } read_cases("$root/catalog/gpus.csv");
    my %cell;
    for my $c (@pred) {
        next unless defined $c->{err};
        my $g = $cc{$c->{gpu}} || 0;
        my $lng = ($c->{cp} || 1) > 1 || $c->{seq_len} > 16384 ? 1 : 0;
        push @{$cell{join ',', int($g), $c->{precision} eq 'fp8' ? 1 : 0, $is_moe->($c) ? 'any' : $lng,
                     $is_moe->($c) ? 1 : 0}}, abs $c->{err};
    }
    open my $bf, '<', "$root/planner/band.c" or die "llm_runs.pl: planner/band.c: $!\n";
    my $band = do { local $/; <$bf> };
    close $bf;
    while ($band =~ /\{(\d+), (\d+), ([01]), (LLM_ANY|[01]), ([01]), ([0-9.]+)\}/g) {
        my ($lo, $hi, $fp8, $lng, $moe, $err) = ($1, $2, $3, $4 eq 'LLM_ANY' ? 'any' : $4, $5, $6);
        my @e = map { @{$cell{$_}} } grep { my ($g, $f, $l, $m) = split /,/;
                                             $g >= $lo / 10 && $g <= $hi / 10 && $f == $fp8 &&
                                             $l eq $lng && $m == $moe } keys %cell;
        my $mape = @e ? (eval { my $t = 0; $t += $_ for @e; $t } / @e) : 0;
        printf "%s - llm runs: band.c's %s cell, cc %d-%d, %s, %s: %.1f%%, the runs' MAPE %.1f%% (%d runs)\n",
            @e >= 5 && abs($mape - 100 * $err) <= 0.5 ? 'ok' : 'FAIL', $moe ? 'mixture-of-experts' : 'dense',
            $lo, $hi, $fp8 ? 'fp8' : '16-bit', $lng eq 'any' ? 'any context' : $lng ? 'long' : 'short',
            100 * $err, $mape, scalar @e;
    }
    exit 0;
}

for my $c (@cases) {
    if (!$c->{scenario}) {
        printf "%s: not predicted, published %s %s [known gap: %s]\n", $c->{case}, $c->{published},
            $c->{unit}, $c->{known_gap};
        next;
    }
    my $line = defined $c->{pred}
        ? sprintf('%s: predicted %.4g, published %s %s, error %+.1f%%', $c->{case}, $c->{pred},
                  $c->{published}, $c->{unit}, $c->{err})
        : "$c->{case}: no prediction";
    $line .= $c->{role} eq 'input'
        ? (defined $fit{$c->{key}} ? sprintf(' | carried: input (measured step %.4g s)', $fit{$c->{key}})
                                   : ' | carried: input, fit failed')
        : defined $c->{cerr} ? sprintf(' | carried: predicted %.4g, error %+.1f%% (from %s)',
                                       $c->{cpred}, $c->{cerr}, $input_of{$c->{key}})
        : ' | carried: no prediction';
    $line .= " (dtplan: infeasible)" if $c->{cl} && !$c->{cl}{feasible};
    $line .= " [known gap: $c->{known_gap}]" if $c->{known_gap} ne '';
    print "$line\n";
}
my @ok = grep { defined $_->{err} } @dense;
my @cok = grep { defined $_->{cerr} } @dense;
print "\n";
printf "# catalog alone, all: %s\n", summary(map { $_->{err} } @ok);
printf "# carried, all (inputs excluded): %s\n", summary(map { $_->{cerr} } @cok);
printf "# catalog alone, mixtures of experts (ep > 1, apart from \"all\"): %s; carried: %s\n",
    summary(errs('err', @moe)),
    summary(errs('cerr', @moe));
for my $by (qw(precision gpu group)) {
    my %v = map { $_->{$by} => 1 } @ok;
    for my $v (sort keys %v) {
        printf "# catalog alone, %s %s: %s; carried: %s\n", $by, $v,
            summary(map { $_->{err} } grep { $_->{$by} eq $v } @ok),
            summary(map { $_->{cerr} } grep { $_->{$by} eq $v } @cok);
    }
}
my @gap = grep { !$_->{scenario} } @cases;
printf "# not predicted (known gaps): %d rows\n", scalar @gap;
# Each of these runs ran on its GPUs, so a memory model that puts one over
# capacity is wrong there (planner/memory.c; docs/model.md "Memory").
my @over = grep { $_->{scenario} && $_->{cl} && !$_->{cl}{feasible} } @cases;
printf "# published runs dtplan puts over the GPU's usable memory: %d of %d%s\n", scalar @over,
    scalar(grep { $_->{scenario} && $_->{cl} } @cases),
    @over ? ' (' . join(', ', map { $_->{case} } @over) . ')' : '';
