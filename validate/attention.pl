#!/usr/bin/perl
# attention.pl - dtplan's fused attention rates against NVIDIA's published
# cuDNN training benchmark (validate/published/attention_cases.csv:
# NVIDIA/cudnn-frontend's benchmark/sdpa_benchmark_training results).
#
# For each case `dtplan compute` runs the case's model (a shape with the
# benchmark's heads) at its batch and sequence, bf16, fused kernels, the
# case's kernel; the attention's share of the pass, over the model's layers,
# is a layer's attention time, and its FLOPs as flash.h and the benchmark
# count them (forward 2 x the unmasked scores x (d_qk + d_v) a head,
# backward 2.5 times that) over that time is the rate compared with the
# published forward and backward rates combined, 3.5 / (1/f + 2.5/b).
#
# Rows of role "check" are independent of the model: "ok - " within 10%,
# "xfail - " outside with the row's known_gap, "FAIL - " outside without
# one or within with one.  Rows of role "source" are the figures
# catalog/flash.c takes (Hopper's and Blackwell's cuDNN): "ok - " where the
# model gives them back within 3% (its kernel launches add to a short
# kernel), "FAIL - " where not.  BUILD picks the build tree (default build).
use strict;
use warnings;
use FindBin;
use JSON::PP;

my $root = "$FindBin::Bin/..";
my $build = $ENV{BUILD} // 'build';
require "$root/validate/cases.pl";

my %models = map { $_->{name} => $_ } read_cases("$root/catalog/models.csv");

# A layer's fused attention, forward plus backward, in seconds, or undef.
sub attention_s {
    my ($c) = @_;
    my @cmd = ("$build/dtplan", 'compute', '--json', '--model', $c->{model}, '--gpu', $c->{gpu},
               '--precision', 'bf16', '--batch', $c->{batch}, '--seq', $c->{seq},
               '--amp', 'pure', '--kernels', 'fused', '--attention', $c->{kernel});
    my $d = dtplan_json(@cmd) or return undef;
    my $r = $d->[0] or return undef;
    my $layers = $models{$c->{model}}{layers} or return undef;
    return ($r->{fwd_s} + $r->{bwd_s}) * ($r->{share_by_kind}{attention} // 0) / $layers;
}

my ($n, $sum, $bad, $src) = (0, 0, 0, 0);
for my $c (read_cases("$root/validate/published/attention_cases.csv")) {
    my %m = %{ $models{$c->{model}} // die "attention.pl: no model $c->{model} in catalog/models.csv\n" };
    my $d = $m{hidden} / $m{heads};
    my $s = $c->{seq};
    my $scores = $c->{causal} ? $s * ($s + 1) / 2 : $s * $s;
    my $flops = 3.5 * $c->{batch} * $m{heads} * $scores * 2 * (2 * $d);
    my $t = attention_s($c);
    my $what = "attention $c->{case} ($c->{kernel} on $c->{gpu}, $s tokens)";
    unless (defined $t && $t > 0) {
        print "FAIL - $what: dtplan compute gave no attention time\n";
        $bad++;
        next;
    }
    my $pred = $flops / $t / 1e12;
    my $pub = 3.5 / (1 / $c->{fwd_tflops} + 2.5 / $c->{bwd_tflops});
    my $e = 100 * ($pred / $pub - 1);
    my $line = sprintf('%s: %.0f TFLOP/s forward plus backward, published %.0f (%+.1f%%)', $what, $pred, $pub, $e);
    if ($c->{role} eq 'source') {
        # the model takes these figures: it must give them back
        $src++;
        if (abs($e) <= 3) {
            print "ok - $line [the figure catalog/flash.c takes, given back within 3%: the model adds its launches]\n";
        } else {
            print "FAIL - $line: catalog/flash.c takes this figure, yet gives it back past 3%\n";
            $bad++;
        }
        next;
    }
    $n++;
    $sum += abs $e;
    $bad += print_within($line, abs($e) <= 10, $c->{known_gap}, '10%');
}
printf "# attention: %d source figures given back, %d held-out cases checked, mean |error| %.1f%%\n",
    $src, $n, $n ? $sum / $n : 0;
exit($bad ? 1 : 0);
