#!/usr/bin/perl
# llm_pairs.pl - one change on the same model and layout: the ratio of the
# published throughput with the change to without it, against dtplan's
# ratio of the two predictions from the catalog alone
# (validate/published/llm_pairs.csv; the runs are rows of llm_runs.csv,
# their sources there).  Changes: fp8 against bf16 (issue 36's target: each
# pair within 0.07), tp_overlap (async tensor parallelism) against none.
#
# One line a pair: "ok - " within 0.07, "xfail - " outside it for a pair
# with a known gap (its reason in the CSV), "FAIL - " otherwise; then a "# "
# line with the mean absolute difference.  BUILD picks the build tree.
use strict;
use warnings;
use FindBin;

my $root = "$FindBin::Bin/..";
my $build = $ENV{BUILD} // 'build';
my $dtplan = "$build/dtplan";
$dtplan = "$root/$dtplan" unless $dtplan =~ m{^/};
require "$root/validate/cases.pl";

my %run = map { $_->{case} => $_ } read_cases("$root/validate/published/llm_runs.csv");
my ($n, $sum) = (0, 0);

# Tokens a second a GPU that dtplan predicts for a run's scenario, or undef.
sub tokens {
    my ($r) = @_;
    my $j = dtplan_json($dtplan, '--json', '-q', "$root/$r->{scenario}");
    my $c = $j && $j->{clusters} ? $j->{clusters}[0] : undef;
    return undef unless $c && $c->{step_time_s};
    my $step = ref $c->{step_time_s} ? $c->{step_time_s}{mean} : $c->{step_time_s};
    return $step > 0 ? $r->{global_batch} * $r->{seq_len} / $step / $r->{gpus} : undef;
}

for my $p (read_cases("$root/validate/published/llm_pairs.csv")) {
    my ($b, $f) = ($run{$p->{base_case}}, $run{$p->{case}});
    if (!$b || !$f) {
        print "FAIL - pair $p->{pair}: a run is not in llm_runs.csv\n";
        next;
    }
    my ($tb, $tf) = (tokens($b), tokens($f));
    if (!$tb || !$tf) {
        print "FAIL - pair $p->{pair}: dtplan predicted no step\n";
        next;
    }
    my ($pub, $pred) = ($f->{published} / $b->{published}, $tf / $tb);
    my $d = $pred - $pub;
    my $what = sprintf "%s pair %s: %.3fx predicted, %.3fx published (%+.3f)", $p->{change},
        $p->{pair}, $pred, $pub, $d;
    $n++;
    $sum += abs $d;
    if (abs $d <= 0.07) {
        # a marked pair back within 0.07 loses its mark, as validate/llm_runs.pl's cases
        print $p->{known_gap} ? "FAIL - $what: within 0.07, take the known-gap mark off\n"
                              : "ok - $what\n";
    } elsif ($p->{known_gap}) {
        print "xfail - $what [known gap: $p->{known_gap}]\n";
    } else {
        print "FAIL - $what, over 0.07\n";
    }
}
printf "# pairs: %d, mean |predicted - published| ratio %.3f\n", $n, $n ? $sum / $n : 0;
