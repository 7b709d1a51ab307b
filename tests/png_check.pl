#!/usr/bin/perl
# png_check.pl - decode a PNG (8-bit RGB or RGBA, not interlaced) with perl's
# core Compress::Zlib and print what a screenshot test needs to know:
#   w=WIDTH h=HEIGHT colours=DISTINCT nonwhite=FRACTION RRGGBB=COUNT ...
# for each RRGGBB colour given after the file name (exact matches).  Exits 1
# with a message on stderr when the file is not such a PNG.
# Usage: perl tests/png_check.pl FILE.png [RRGGBB ...]
use strict;
use warnings;
use Compress::Zlib;

my ($file, @want) = @ARGV;
open my $fh, '<:raw', $file or die "png_check: $file: $!\n";
local $/;
my $data = <$fh>;
close $fh;
substr($data, 0, 8) eq "\x89PNG\r\n\x1a\n" or die "png_check: $file: not a PNG\n";
my ($pos, $w, $h, $depth, $ctype, $interlace, $idat) = (8, 0, 0, 0, 0, 0, '');
while ($pos + 8 <= length $data) {
    my ($len, $type) = unpack 'Na4', substr($data, $pos, 8);
    my $body = substr($data, $pos + 8, $len);
    if ($type eq 'IHDR') {
        ($w, $h, $depth, $ctype, undef, undef, $interlace) = unpack 'NNCCCCC', $body;
    } elsif ($type eq 'IDAT') {
        $idat .= $body;
    } elsif ($type eq 'IEND') {
        last;
    }
    $pos += 12 + $len;
}
die "png_check: $file: expected 8-bit RGB or RGBA, not interlaced\n"
    unless $depth == 8 && ($ctype == 2 || $ctype == 6) && !$interlace && $w > 0 && $h > 0;
my $raw = uncompress($idat);
defined $raw or die "png_check: $file: bad image data\n";
my $bpp = $ctype == 6 ? 4 : 3;
my $stride = $w * $bpp;
length($raw) == $h * ($stride + 1) or die "png_check: $file: image data has the wrong size\n";

# Rows are counted as strings of 3-byte pixels; a row the same as the one
# above (most of a screenshot is blank page) adds that row's counts again
# without being split up; an "up" row adds only its non-zero bytes to the
# row above, and one of zeros (the pixels of the row above) is not even
# unfiltered.
my (%count, %rowcount, @prev);
my ($nonwhite, $prevrow, $zeros) = (0, '', "\0" x $stride);
@prev = (0) x $stride;
for my $y (0 .. $h - 1) {
    my $filter = ord substr($raw, $y * ($stride + 1), 1);
    my $line = substr($raw, $y * ($stride + 1) + 1, $stride);
    if ($y > 0 && $filter == 2 && $line eq $zeros) {
        $count{$_} += $rowcount{$_} for keys %rowcount;
        next;
    }
    my @cur;
    if ($filter == 2) {     # up: only the bytes that differ from the row above
        @cur = @prev;
        while ($line =~ /[^\0]/g) {
            my $i = pos($line) - 1;
            $cur[$i] = ($cur[$i] + ord substr($line, $i, 1)) & 255;
        }
        $filter = 0;
    } else {
        @cur = unpack 'C*', $line;
    }
    if ($filter == 1) {
        $cur[$_] = ($cur[$_] + $cur[$_ - $bpp]) & 255 for $bpp .. $stride - 1;
    } elsif ($filter == 2) {
        $cur[$_] = ($cur[$_] + $prev[$_]) & 255 for 0 .. $stride - 1;
    } elsif ($filter == 3) {
        for my $i (0 .. $stride - 1) {
            my $left = $i >= $bpp ? $cur[$i - $bpp] : 0;
            $cur[$i] = ($cur[$i] + (($left + $prev[$i]) >> 1)) & 255;
        }
    } elsif ($filter == 4) {
        for my $i (0 .. $stride - 1) {
            my $a = $i >= $bpp ? $cur[$i - $bpp] : 0;
            my $b = $prev[$i];
            my $c = $i >= $bpp ? $prev[$i - $bpp] : 0;
            my $p = $a + $b - $c;
            my ($pa, $pb, $pc) = (abs($p - $a), abs($p - $b), abs($p - $c));
            $cur[$i] = ($cur[$i] + ($pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $c)) & 255;
        }
    } elsif ($filter != 0) {
        die "png_check: $file: unknown filter $filter\n";
    }
    my $row = pack 'C*', @cur;
    if ($row ne $prevrow) {
        %rowcount = ();
        $rowcount{$_}++ for unpack($bpp == 4 ? '(a3x)*' : '(a3)*', $row);
        $prevrow = $row;
    }
    $count{$_} += $rowcount{$_} for keys %rowcount;
    @prev = @cur;
}
%count = map { (unpack('H6', $_) => $count{$_}) } keys %count;
$nonwhite = $w * $h - ($count{'ffffff'} // 0);
printf "w=%d h=%d colours=%d nonwhite=%.4f", $w, $h, scalar(keys %count), $nonwhite / ($w * $h);
printf " %s=%d", $_, $count{$_} // 0 for map { lc } @want;
print "\n";
