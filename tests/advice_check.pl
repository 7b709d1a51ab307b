#!/usr/bin/perl
# advice_check.pl - checks every sentence of a recommendation's reason against
# the table it sits under.  Arguments: JSON files written by `dtplan --json`
# (listed clusters) or `dtplan plan --json` (a catalog search).  For each kind
# of sentence it prints "ok - advice: KIND: N sentences agree with their
# tables", or a FAIL line per sentence that does not and when no reason had
# that kind at all (so that a change of wording cannot make the check empty).
use strict;
use warnings;
use JSON::PP;

my %seen;      # kind -> sentences checked
my @fail;

sub near { my ($a, $b, $rel, $abs) = @_; return abs($a - $b) <= $abs + $rel * abs($b); }
sub bad { push @fail, "$_[0]: $_[1]"; }

# One cluster of either output, in one shape.
sub row {
    my ($c) = @_;
    my %r = (name => $c->{name}, feasible => $c->{feasible} ? 1 : 0);
    $r{step} = ref $c->{step_time_s} ? $c->{step_time_s}{mean} : $c->{step_s};
    $r{cost_step} = $c->{cost_per_step_usd};
    my $u = $c->{utilization} // {gpu => $c->{util_gpu}, cpu => $c->{util_cpu},
                                   nic => $c->{util_nic}};
    @r{qw(gpu cpu nic)} = map { 100 * ($u->{$_} // 0) } qw(gpu cpu nic);
    $r{bound} = $c->{bottleneck_detail} // $c->{bound_text} // '';
    $r{train_s} = $c->{time_to_train_s} // $c->{train_s};
    $r{cost_train} = $c->{cost_to_train_usd};
    $r{samples_s} = $c->{samples_per_s};
    $r{batch} = $c->{global_batch};
    $r{train_nodes} = 0;
    for my $g (@{$c->{groups}}) {
        next unless $g->{role} eq 'train';
        $r{train_inst} //= $g->{instance};
        $r{train_nodes} += $g->{count};
    }
    return \%r;
}

# The objective of a row, as the planner compares it.
sub objective {
    my ($o, $r) = @_;
    return defined $r->{train_s} ? $r->{train_s} : 1 / $r->{samples_s} if $o eq 'step_time';
    if ($o eq 'cost_to_train') {
        return $r->{cost_train} if defined $r->{cost_train};
        return $r->{cost_step} / $r->{samples_s};
    }
    return $r->{cost_step} / $r->{samples_s};   # cost_per_step, per sample
}

for my $file (@ARGV) {
    local $/;
    open my $fh, '<', $file or die "$file: $!";
    my $d = decode_json(<$fh>);
    close $fh;
    my $rec = $d->{recommendation};
    next unless defined $rec->{cluster};
    my $why = $rec->{reason};
    my $obj = $d->{objective};
    my $search = exists $d->{top};
    my @tab = map { row($_) } @{$search ? $d->{top} : $d->{clusters}};
    my $cur = $search ? row($d->{current}) : $tab[0];
    my ($best) = grep { $_->{name} eq $rec->{cluster} } @tab, $cur;
    my $tag = "$file ($rec->{cluster})";
    unless ($best) { bad("recommended", "$tag: not in its table"); next; }

    # the recommendation follows the objective: at most 2% over the best,
    # never worse than the current choice
    my @feas = grep { $_->{feasible} } @tab;
    my ($lo) = sort { $a <=> $b } map { objective($obj, $_) } @feas;
    my $ob = objective($obj, $best);
    $seen{objective}++;
    bad("objective", "$tag: $ob on $obj, over 2% more than the best $lo") if $ob > 1.02 * $lo * (1 + 1e-6);
    bad("objective", "$tag: worse on $obj than the current choice $cur->{name}")
        if $cur->{feasible} && $ob > objective($obj, $cur) * (1 + 1e-6);

    if ($why =~ /step ([\d.]+) ms -> ([\d.]+) ms, \$([\d.e+-]+) -> \$([\d.e+-]+) per step/) {
        $seen{change}++;
        bad("change", "$tag: '$&' against steps $cur->{step} and $best->{step} s")
            unless near($1, 1e3 * $cur->{step}, 1e-5, 0.06) && near($2, 1e3 * $best->{step}, 1e-5, 0.06)
            && near($3, $cur->{cost_step}, 0.006, 0) && near($4, $best->{cost_step}, 0.006, 0);
        if ($why =~ /per step \(([+-]\d+)%( per sample)?\)/) {
            my ($pct, $per) = ($1, $2);
            my ($a, $b) = ($cur->{cost_step}, $best->{cost_step});
            ($a, $b) = ($a / $cur->{batch}, $b / $best->{batch}) if $per;
            bad("change", "$tag: '$&' against " . (100 * ($b / $a - 1)) . "%")
                unless $a > 0 && near($pct, 100 * ($b / $a - 1), 0, 0.51);
            bad("change", "$tag: a per-step change where the batches differ")
                if !$per && $cur->{batch} && $best->{batch} && $cur->{batch} != $best->{batch};
        }
    }
    if ($why =~ /It does better on (\S+) than the best of the (\d+) candidates searched, (.+?) \(step ([\d.]+) ms against ([\d.]+) ms/) {
        my ($top, $a, $b) = ($3, $4, $5);
        $seen{keep}++;
        bad("keep", "$tag: keeps $rec->{cluster} over $top: '$&'")
            unless $search && $best == $cur && $tab[0]{name} eq $top
            && near($a, 1e3 * $cur->{step}, 1e-5, 0.06) && near($b, 1e3 * $tab[0]{step}, 1e-5, 0.06)
            && objective($obj, $cur) < objective($obj, $tab[0]);
    }
    if (index($why, "it is $best->{bound}") >= 0 || index($why, "is $best->{bound}.") >= 0) {
        $seen{bound}++;
    } elsif ($best->{bound} ne '') {
        bad("bound", "$tag: the reason does not give the recommended cluster's bound, "
            . "'$best->{bound}'");
    }
    if ($why =~ /It ties on (\S+) with (.+?) \((?:(.+?) is ([\d.]+)% lower|the closest ([\d.]+)% higher), within the ([\d.]+)%/) {
        my ($names, $first, $gap, $err) = ($2, $3, $4 // $5, $6);
        my $t = $rec->{tie};
        $seen{tie}++;
        if (!$t) {
            bad("tie", "$tag: the reason ties, the JSON has no tie");
        } else {
            bad("tie", "$tag: gap $gap% against $t->{gap}, error $err% against "
                . "$t->{uncorrelated_error}")
                unless near($gap, 100 * $t->{gap}, 0, 0.051)
                && near($err, 100 * $t->{uncorrelated_error}, 0, 0.051)
                && $t->{gap} <= $t->{limit} + 1e-9 && $t->{limit} <= 0.02 + 1e-9;
            if (defined $first) {
                my ($f) = grep { $_->{name} eq $first } @tab;
                bad("tie", "$tag: $first, 'lower', is not lower on $obj")
                    unless !$search || ($f && objective($obj, $f) <= $ob);
            }
        }
        if (!$search) {
            for my $n (split /, /, $names) {
                bad("tie", "$tag: ties with $n, not in the table")
                    unless grep { $_->{name} eq $n } @tab;
            }
        }
    } elsif ($rec->{tie}) {
        bad("tie", "$tag: the JSON has a tie, the reason none");
    }
    if ($why =~ /and (its|the recommended) step is (?:([\d.]+) x as long|as long within 0.5%)/) {
        my ($whose, $x) = ($1, $2);
        $seen{layout}++;
        my @r = map { $_->{step} / $best->{step} } grep { $_ != $best } (@tab, $cur);
        @r = map { 1 / $_ } @r if $whose eq 'the recommended';
        bad("layout", "$tag: '$&' matches no cluster of the table")
            unless grep { defined $x ? near($x, $_, 0, 0.006) && $_ >= 1.0049
                                     : abs($_ - 1) <= 0.0051 } @r;
    }
    if ($why =~ /Check utilisation before scaling: on (.+?) (?:GPU (\d+)%, )?CPU (\d+)%, busiest NIC (\d+)%/) {
        my ($n, $g, $c, $nic) = ($1, $2, $3, $4);
        $seen{utilisation}++;
        bad("utilisation", "$tag: '$&' against $cur->{gpu}, $cur->{cpu}, $cur->{nic}")
            unless $n eq $cur->{name} && near($c, $cur->{cpu}, 0, 0.51)
            && near($nic, $cur->{nic}, 0, 0.51) && (!defined $g || near($g, $cur->{gpu}, 0, 0.51));
    }
    if ($why =~ /(\S+), with (\d+) vCPU per GPU, is in the table: (.+?) is recommended over it/) {
        my ($i, $r) = ($1, $3);
        $seen{in_table}++;
        bad("in_table", "$tag: $i is not in the table, or $r is not the recommendation")
            unless $r eq $best->{name} && grep { ($_->{train_inst} // '') eq $i } @tab;
    }
    if ($why =~ /[Ss]cale up within the family: (\S+) has (\d+) vCPU per GPU/) {
        my $i = $1;
        $seen{scale_up_family}++;
        bad("scale_up_family", "$tag: advises $i, which the table has and does not recommend")
            if grep { ($_->{train_inst} // '') eq $i && $_ != $best } @tab;
    }
    if ($why =~ /Try first: scale up/) {
        $seen{try_scale_up}++;
        bad("try_scale_up", "$tag: 'Try first: scale up' under action $rec->{action}")
            unless $rec->{action} eq 'scale_up';
    }
    if ($why =~ /scale out only once the network is not the bound/) {
        $seen{network}++;
        bad("network", "$tag: says scale out later, recommends $best->{train_nodes} nodes "
            . "against $cur->{train_nodes}") if $best->{train_nodes} > $cur->{train_nodes};
    }
}

print "FAIL - advice: $_\n" for @fail;
for my $k (qw(objective change keep bound tie layout utilisation in_table scale_up_family
              try_scale_up network)) {
    if (!$seen{$k}) {
        print "FAIL - advice: $k: no reason had this kind of sentence\n";
    } elsif (!grep { /^$k:/ } @fail) {
        print "ok - advice: $k: $seen{$k} sentences agree with their tables\n";
    }
}
