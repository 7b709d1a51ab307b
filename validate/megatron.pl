#!/usr/bin/perl
# megatron.pl - dtplan against Narayanan et al. 2021 (arXiv:2104.04473)
# Table 1 (validate/published/megatron_cases.csv): each row's scenario in
# validate/published/megatron/ is simulated (its one input the 1.7B row's
# measured step, carried to the row's model by the compute model) and the
# step turned into teraFLOP/s a GPU by the paper's own count, equation 3:
#   F = 96 B s l h^2 (1 + s / 6h + V / 16 l h)  FLOPs an iteration,
#   teraFLOP/s a GPU = F / (step x GPUs) / 1e12.
#
# Run as a program it prints one line per row, "ok - ..." within 10% (the
# issue's target), "xfail - ..." for a row with a known gap (its reason in
# the CSV) that still misses by more than 10%, "FAIL - ..." otherwise, then
# a "# " summary line with the mean absolute error of the predicted rows
# (target 5%); a row whose role is "input" is the measurement the others
# are predicted from.  Rows counted as "mfu" (Llama 3) compare dtplan's
# model FLOPs utilisation times the H100's peak instead.
# published.pl requires this file and calls megatron_cases().
use strict;
use warnings;

# what each count of the CSV measures: a short name, and the JSON report's unit
my %units = (eq3 => ['teraFLOP/s a GPU', 'teraFLOP/s a GPU (equation 3)'],
             mfu => ['teraFLOP/s a GPU', 'teraFLOP/s a GPU (model FLOPs)'],
             step => ['s an iteration', 's an iteration']);

sub megatron_cases {
    my ($root, $build) = @_;
    my @out;
    require "$root/validate/cases.pl";
    for my $c (read_cases("$root/validate/published/megatron_cases.csv")) {
        my %c = %$c;
        my $j = dtplan_json("$build/dtplan", '--json', '-q', "$root/$c{scenario}");
        my ($cl) = $j ? grep { $_->{name} eq $c{cluster} } @{$j->{clusters}} : ();
        if ($cl && $cl->{step_time_s}) {
            my ($B, $s, $l, $h, $V) = @c{qw(batch seq layers hidden vocab)};
            my $F = 96 * $B * $s * $l * $h * $h * (1 + $s / (6 * $h) + $V / (16 * $l * $h));
            my $step = ref $cl->{step_time_s} ? $cl->{step_time_s}{mean} : $cl->{step_time_s};
            # by the CSV's count: equation 3's teraFLOP/s a GPU; model FLOPs utilisation
            # (Llama 3's Table 4) times the H100's dense bf16 peak, 989.4 teraFLOP/s
            # (catalog/gpus.csv); an iteration's seconds (Korthikanti et al. 2022, Table 5)
            my $count = $c{count} // 'eq3';
            $c{pred} = $count eq 'mfu' ? $cl->{mfu} * 989.4
                     : $count eq 'step' ? $step
                     : $F / ($step * $c{gpus}) / 1e12;
            ($c{unit_short}, $c{unit}) = @{$units{$count} // $units{eq3}};
            $c{err} = 100 * ($c{pred} / $c{published} - 1);
            $c{detail} = sprintf('step %.3f s, of which tensor-parallel %.3f s and other exposed '
                                 . 'communication %.3f s', $step, $cl->{breakdown_s}{tp_comm},
                                 $cl->{breakdown_s}{exposed_comm} - $cl->{breakdown_s}{tp_comm});
        }
        push @out, \%c;
    }
    return @out;
}

unless (caller) {
    use FindBin;
    my @c = megatron_cases("$FindBin::Bin/..", $ENV{BUILD} // 'build');
    my ($sum, $n, $all, $na) = (0, 0, 0, 0);
    for my $c (@c) {
        my $what = "megatron $c->{case} (tp $c->{tp}, pp $c->{pp}, $c->{gpus} GPUs): "
            . (defined $c->{pred}
                   ? sprintf('predicted %.4g %s, published %s (%+.1f%%; %s)', $c->{pred},
                             $c->{unit_short}, $c->{published}, $c->{err}, $c->{detail})
                   : 'no prediction');
        if (!defined $c->{err}) {
            print "FAIL - $what\n";
            next;
        }
        if ($c->{role} eq 'predicted' && $c->{cluster} eq 'table1') {
            $all += abs $c->{err};
            $na++;
        }
        if ($c->{role} eq 'predicted' && $c->{known_gap} eq '') {
            $sum += abs $c->{err};
            $n++;
        }
        print judge_case($what, $c->{err}, $c->{known_gap}, 10), "\n";
    }
    printf "# megatron: %d predicted rows without a known gap, mean absolute error %.1f%% "
        . "(target: each within 10%%, 5%% overall); the input rows and the known gaps apart\n",
        $n, $n ? $sum / $n : 0;
    printf "# megatron: all %d predicted Table 1 rows, known gaps included, mean absolute error "
        . "%.1f%%\n", $na,
        $na ? $all / $na : 0;
}
1;
