#!/usr/bin/perl
# tcprate.pl - a plain TCP transfer between two emulated hosts: the link rate a
# user would measure.  `tcprate.pl serve PORT` receives one connection and
# prints nothing; `tcprate.pl send HOST PORT MBYTES` sends MBYTES MiB and
# prints the goodput in Mbit/s, timed from connect to the receiver's close.
use strict;
use warnings;
use IO::Socket::INET;
use Time::HiRes qw(time);

my $cmd = shift // '';
if ($cmd eq 'serve') {
    my $port = shift;
    my $srv = IO::Socket::INET->new(LocalPort => $port, Listen => 1, ReuseAddr => 1, Proto => 'tcp')
        or die "tcprate.pl: listen: $!\n";
    my $c = $srv->accept or die "tcprate.pl: accept: $!\n";
    my $buf;
    while (sysread($c, $buf, 1 << 20)) { }
    close $c;
    exit 0;
} elsif ($cmd eq 'send') {
    my ($host, $port, $mb) = @_ ? @ARGV[0..2] : @ARGV;
    ($host, $port, $mb) = @ARGV;
    my $s;
    for (1 .. 100) {
        $s = IO::Socket::INET->new(PeerAddr => $host, PeerPort => $port, Proto => 'tcp') and last;
        select(undef, undef, undef, 0.05);
    }
    die "tcprate.pl: connect $host:$port: $!\n" unless $s;
    my $chunk = 'x' x (1 << 16);
    my $total = $mb * 1048576;
    my $t0 = time;
    my $sent = 0;
    while ($sent < $total) {
        my $n = syswrite($s, $chunk) // die "tcprate.pl: write: $!\n";
        $sent += $n;
    }
    shutdown($s, 1);
    my $buf;
    while (sysread($s, $buf, 4096)) { }
    my $dt = time - $t0;
    printf "%.3f\n", $sent * 8 / $dt / 1e6;
    exit 0;
}
die "usage: tcprate.pl serve PORT | send HOST PORT MBYTES\n";
