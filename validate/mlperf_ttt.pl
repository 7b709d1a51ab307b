#!/usr/bin/perl
# mlperf_ttt.pl - dtplan's time to train against MLPerf Training's Llama 3.1
# 405B results (validate/published/mlperf_ttt.csv; issue 39: within 15% of
# their time to train, the run's layout from its submission).
#
# Each case is the step row of validate/published/llm_runs.csv it names
# (llm_case: the submission's layout, from the catalog alone), run with the
# scored run's own training samples (dtplan predicts the time, not the
# convergence) and the round's evaluations: one every eval_every_samples,
# the first eval_skip skipped, eval_samples sequences forward each
# (input.eval_* keys; docs/model.md "Evaluation").  The predicted time to
# train is compared with the scored run's run_start-to-run_stop minutes, not
# with the round's score, whose scaling.json factor normalises convergence.
#
#   perl validate/mlperf_ttt.pl          "ok - " / "xfail - " / "FAIL - " lines
#                                         (within 15%), then "# " summary lines
# BUILD picks the build tree (default build).  Cost: one dtplan run a case.
use strict;
use warnings;
use FindBin;
use File::Temp qw(tempdir);

my $root = "$FindBin::Bin/..";
my $build = $ENV{BUILD} // 'build';
my $dtplan = $build =~ m{^/} ? "$build/dtplan" : "$root/$build/dtplan";
require "$root/validate/cases.pl";

my %llm = map { $_->{case} => $_ } read_cases("$root/validate/published/llm_runs.csv");
my $tmp = tempdir('mlperf_ttt.XXXXXX', DIR => $ENV{DT_TEST_OUT} // '/tmp', CLEANUP => 1);
my ($sum, $n, $max, $within, $bad) = (0, 0, 0, 0, 0);
for my $c (read_cases("$root/validate/published/mlperf_ttt.csv")) {
    my $row = $llm{$c->{llm_case}} or die "mlperf_ttt.pl: $c->{case}: no llm_runs row $c->{llm_case}\n";
    my $keys = "  dataset_samples: $c->{samples}\n  eval_every_samples: $c->{eval_every_samples}\n"
             . "  eval_samples: $c->{eval_samples}\n  eval_skip: $c->{eval_skip}\n";
    my $f = scenario_with("$root/$row->{scenario}", 'input', $keys, $tmp)
        or die "mlperf_ttt.pl: $row->{scenario}: not read, or no input section\n";
    my $j = dtplan_json($dtplan, $f, '--json', '-q');
    my $cl = $j && $j->{clusters} ? $j->{clusters}[0] : undef;
    my $pred = $cl && defined $cl->{time_to_train_s} ? $cl->{time_to_train_s} / 60 : undef;
    my $what = sprintf('mlperf %s: time to train predicted %s min (%s evaluations), published %s',
                       $c->{case}, defined $pred ? sprintf('%.2f', $pred) : 'nothing',
                       $cl ? $cl->{evaluations} // '?' : '?', $c->{published_minutes});
    unless (defined $pred) {
        print "FAIL - $what\n";
        $bad++;
        next;
    }
    my $err = 100 * ($pred / $c->{published_minutes} - 1);
    my $a = abs $err;
    ($sum, $n, $max) = ($sum + $a, $n + 1, $a > $max ? $a : $max);
    $within++ if $a <= 15;
    my $line = judge_case(sprintf('%s (%+.1f%%)', $what, $err), $err, $c->{known_gap}, 15);
    $bad++ if $line =~ /^FAIL/;
    print "$line\n";
}
printf "# mlperf time to train: %d cases, MAPE %.1f%%, largest %.1f%%, %d within 15%% "
    . "(target: each within 15%%)\n", $n, $n ? $sum / $n : 0, $max, $within;
exit($bad ? 1 : 0);
