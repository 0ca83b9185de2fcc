#!/usr/bin/perl
# A stand-in for the organizers' correlation.pl, for timing only (benchmarks/speed.py --perl): it loads the
# same modules as theirs (Getopt::Long, Pod::Usage, Math::Complex), skips the same lines (comments; an empty
# gold line is a pair not scored) and prints "Pearson: r" with five decimals. Not a scorer of this project.
use Getopt::Long qw(:config auto_help);
use Pod::Usage;
use Math::Complex;
use strict;
use warnings;

die "usage: correlation.pl GOLD SYS\n" unless @ARGV == 2;
open(my $gold, '<', $ARGV[0]) or die "$ARGV[0]: $!\n";
open(my $sys, '<', $ARGV[1]) or die "$ARGV[1]: $!\n";
my (@x, @y);
while (my $g = <$gold>) {
    my $s = <$sys>;
    die "$ARGV[1]: fewer lines than $ARGV[0]\n" unless defined $s;
    chomp $g; chomp $s;
    next if $g =~ /^#/ or $g eq '';
    push @x, (split /\t/, $s)[0];
    push @y, $g;
}
my $n = @x;
my ($sx, $sy, $sxx, $syy, $sxy) = (0, 0, 0, 0, 0);
for my $i (0 .. $n - 1) {
    $sx += $x[$i]; $sy += $y[$i];
    $sxx += $x[$i] ** 2; $syy += $y[$i] ** 2; $sxy += $x[$i] * $y[$i];
}
my $r = ($n * $sxy - $sx * $sy) / sqrt(($n * $sxx - $sx ** 2) * ($n * $syy - $sy ** 2));
printf "Pearson: %.5f\n", $r;
