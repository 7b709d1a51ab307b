#!/usr/bin/perl
# circles.pl - files of one layer that call each other in a loop.
#
# For each layer folder, reads the symbols of its objects (nm on
# BUILD/LAYER/NAME.o for each LAYER/NAME.c): a file that calls a function
# another file of the layer defines depends on it.  Prints one line per
# circle (a strongly connected set of two or more files) as
# "LAYER: a.c b.c ..." and exits 1 when there is any; 0 and nothing
# printed when there is none.  A table of operations is data: naming
# its entries is no call, and neither is a call through its pointers.
#
# usage: tests/circles.pl BUILD LAYER...
use strict;
use warnings;

my ($build, @layers) = @ARGV;
die "usage: circles.pl BUILD LAYER...\n" unless defined $build && @layers;
my $found = 0;

for my $layer (@layers) {
    my (%def, %uses, @files);
    for my $c (sort glob("$layer/*.c")) {
        (my $name = $c) =~ s{.*/}{};
        (my $o = "$build/$layer/$name") =~ s/\.c$/.o/;
        next unless -f $o;
        push @files, $name;
        open(my $nm, '-|', 'nm', $o) or die "nm $o: $!\n";
        while (<$nm>) {
            if (/^\s*U\s+(\S+)/) {
                $uses{$name}{$1} = 1;
            } elsif (/^[0-9a-f]+\s+([TDBRCV])\s+(\S+)/) {
                $def{$2} = $name if $1 eq "T";
            }
        }
        close $nm;
    }
    my %edge;
    for my $f (@files) {
        for my $sym (keys %{ $uses{$f} || {} }) {
            my $to = $def{$sym};
            $edge{$f}{$to} = 1 if defined $to && $to ne $f;
        }
    }
    # Tarjan's strongly connected components
    my ($index, %idx, %low, %on, @stack, @sccs) = (0);
    my $visit;
    $visit = sub {
        my $v = shift;
        $idx{$v} = $low{$v} = $index++;
        push @stack, $v;
        $on{$v} = 1;
        for my $w (sort keys %{ $edge{$v} || {} }) {
            if (!exists $idx{$w}) {
                $visit->($w);
                $low{$v} = $low{$w} if $low{$w} < $low{$v};
            } elsif ($on{$w}) {
                $low{$v} = $idx{$w} if $idx{$w} < $low{$v};
            }
        }
        if ($low{$v} == $idx{$v}) {
            my @scc;
            my $w;
            do {
                $w = pop @stack;
                $on{$w} = 0;
                push @scc, $w;
            } while ($w ne $v);
            push @sccs, [sort @scc] if @scc > 1;
        }
    };
    for my $f (@files) {
        $visit->($f) unless exists $idx{$f};
    }
    for my $scc (sort { $a->[0] cmp $b->[0] } @sccs) {
        print "$layer: @$scc\n";
        $found = 1;
    }
}
exit $found;
