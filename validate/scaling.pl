#!/usr/bin/perl
# scaling.pl - dtplan's scaling efficiency against the published training
# runs it can express (validate/published/scaling_cases.csv): each case is a
# scenario with the published base configuration and the large one, both
# predicted from the scenario and the catalog alone (and the first
# configuration's measurement where the scenario gives one); metric
# efficiency: the large cluster's samples/s per worker over the base
# cluster's; rate_per_worker: the large cluster's samples/s per worker.
#
# Run as a program (on scaling_cases.csv, or the cases CSV its argument
# names: sharded_cases.csv holds the sharded runs) it prints one line per case, "ok - ..." within 10% of
# the published efficiency (the issue's target), "xfail - ..." for a case
# with a known gap (its reason in the CSV) that still misses by more than
# 10%, "FAIL - ..." otherwise (a known gap that closed included), then a
# "# " summary line (tests/suite_published.sh).  published.pl requires this
# file and calls scaling_cases().
use strict;
use warnings;

sub scaling_cases {
    my ($root, $build, $csv) = @_;
    my @out;
    require "$root/validate/cases.pl";
    for my $c (read_cases("$root/" . ($csv // 'validate/published/scaling_cases.csv'))) {
        my %c = %$c;
        my $j = dtplan_json("$build/dtplan", '--json', '-q', "$root/$c{scenario}");
        my %cl = $j ? map { $_->{name} => $_ } @{$j->{clusters}} : ();
        my ($b, $g) = ($cl{$c{base}}, $cl{$c{large}});
        if ($b && $g && $b->{samples_per_s} && $g->{workers}) {
            # efficiency: the large cluster's rate a worker over the base's;
            # rate_per_worker: the large cluster's rate a worker itself
            $c{pred} = $g->{samples_per_s} / $g->{workers};
            $c{pred} /= $b->{samples_per_s} / $b->{workers} if $c{metric} eq 'efficiency';
            $c{err} = 100 * ($c{pred} / $c{published} - 1);
            $c{detail} = sprintf('%g workers at %.1f samples/s each against %g at %.1f',
                                 $g->{workers}, $g->{samples_per_s} / $g->{workers},
                                 $b->{workers}, $b->{samples_per_s} / $b->{workers});
        }
        push @out, \%c;
    }
    return @out;
}

unless (caller) {
    use FindBin;
    # the cases of one CSV: the data-parallel runs by default, or the one named
    my $csv = $ARGV[0] // 'validate/published/scaling_cases.csv';
    my ($label) = $csv =~ m{([^/]+)_cases\.csv$};
    $label = $label && $label ne 'scaling' ? "scaling ($label)" : 'scaling';
    my @c = scaling_cases("$FindBin::Bin/..", $ENV{BUILD} // 'build', $csv);
    my ($sum, $n) = (0, 0);
    for my $c (@c) {
        my $what = "$label $c->{case}: " . (defined $c->{pred}
            ? sprintf('predicted %s %.4g, published %s (%+.1f%%; %s)',
                      $c->{metric} eq 'efficiency' ? 'efficiency' : 'samples/s a worker', $c->{pred},
                      $c->{published}, $c->{err}, $c->{detail})
            : 'no prediction');
        if (!defined $c->{err}) {
            print "FAIL - $what\n";
            next;
        }
        $sum += abs $c->{err};
        $n++;
        print judge_case($what, $c->{err}, $c->{known_gap}, 10), "\n";
    }
    printf "# %s: %d cases, mean absolute error %.1f%% (target: each within 10%%)\n",
        $label, $n, $n ? $sum / $n : 0;
}
1;
