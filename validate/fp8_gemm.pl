#!/usr/bin/perl
# fp8_gemm.pl - the fp8:bf16 ratio of a transformer layer's twelve GEMMs
# with their quantization, as Transformer Engine's own GEMM benchmark
# publishes it (validate/published/fp8_gemm_cases.csv), against dtplan's
# compute model from the catalog alone: `dtplan compute` at the case's
# tokens, the linear layers' time in bf16 over their time in fp8 (the
# recipe's casts included), the output layer's share taken off both (it
# stays bf16, and the benchmark has none).  Target: within 0.07, as the
# end-to-end pairs (llm_pairs.pl).  Not independent of the model: the
# recipes' quantization factors of planner/compute.c (recipe_factor) are
# this table's autocast less pre-quantized times, so these lines check
# that the model carries them through; on Blackwell the fp8 products'
# share, MXFP8's and the casts' factors come from the B300's table too, so
# its lines check the same; the end-to-end Megatron-Bridge rows of
# llm_runs.csv validate them.  One line a case: "ok - " within,
# "xfail - " outside with the case's known_gap, "FAIL - " outside without
# one or within with one; then "# ..." with the mean difference.
# Where the catalog's GPU runs the published part's 16-bit rate (bf16_time
# yes: the B300 SXM6 has the B200's dense bf16 peak and HBM3e), the layer's
# bf16 GEMM time itself is compared too, within 10%: the GEMM rate the
# catalog gives the GPU at a layer's shapes (gpus.csv mm_eff).
use strict;
use warnings;
use FindBin;
use JSON::PP;

my $root = "$FindBin::Bin/..";
my $build = $ENV{BUILD} // 'build';
require "$root/validate/cases.pl";

sub linear_ms {
    my ($c, $prec) = @_;
    my @cmd = ("$build/dtplan", 'compute', '--json', '--model', $c->{model}, '--gpu', $c->{gpu},
               '--precision', $prec, '--batch', $c->{batch}, '--seq', $c->{seq},
               '--amp', 'pure', '--kernels', 'fused');
    push @cmd, '--fp8-recipe', $c->{recipe} if $prec eq 'fp8';
    my $d = dtplan_json(@cmd) or return undef;
    my $r = $d->[0] or return undef;
    return 1e3 * ($r->{fwd_s} + $r->{bwd_s}) * ($r->{share_by_kind}{linear} // 0);
}

my %models = map { $_->{name} => $_ } read_cases("$root/catalog/models.csv");
my ($n, $sum, $bad) = (0, 0, 0);
my %timed;    # a published part's bf16 time, compared once
for my $c (read_cases("$root/validate/published/fp8_gemm_cases.csv")) {
    # the output layer's share of the bf16 linear FLOPs, from catalog/models.csv's shape
    my %m = %{ $models{$c->{model}} // die "fp8_gemm.pl: no model $c->{model} in catalog/models.csv\n" };
    my $layer = 2 * ($m{hidden} * 3 * $m{hidden} + $m{hidden} ** 2 + 2 * $m{hidden} * $m{ffn_hidden});
    my $head = 2 * $m{hidden} * $m{vocab};
    my ($b16, $f8) = (linear_ms($c, 'bf16'), linear_ms($c, 'fp8'));
    my $what = "fp8 GEMMs $c->{case} ($c->{recipe} on $c->{gpu_published} as $c->{gpu})";
    unless (defined $b16 && defined $f8 && $b16 > 0 && $f8 > 0) {
        print "FAIL - $what: dtplan compute gave no time\n";
        $bad++;
        next;
    }
    my $h = $b16 * $head / ($head + $m{layers} * $layer);
    my $pred = ($b16 - $h) / ($f8 - $h);
    if (($c->{bf16_time} // '') eq 'yes' && !$timed{"$c->{gpu_published}/$c->{bf16_ms}"}++) {
        my $t = ($b16 - $h) / $m{layers};
        my $e = 100 * ($t / $c->{bf16_ms} - 1);
        printf "%s - fp8 GEMMs %s: a layer's bf16 GEMMs on %s %.3f ms, published %.3f ms on the %s (%+.1f%%, within 10%%)\n",
            abs($e) <= 10 ? 'ok' : 'FAIL', $c->{case}, $c->{gpu}, $t, $c->{bf16_ms}, $c->{gpu_published}, $e;
        $bad++ if abs($e) > 10;
    }
    my $pub = $c->{bf16_ms} / $c->{fp8_ms};
    my $d = $pred - $pub;
    my $line = sprintf('%s: %.3fx predicted, %.3fx published (%+.3f)', $what, $pred, $pub, $d);
    $n++;
    $sum += abs $d;
    $bad += print_within($line, abs($d) <= 0.07, $c->{known_gap}, '0.07');
}
printf "# fp8 GEMMs: %d cases, mean |predicted - published| ratio %.3f\n", $n, $n ? $sum / $n : 0;
exit($bad ? 1 : 0);

