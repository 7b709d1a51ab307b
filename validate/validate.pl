#!/usr/bin/perl
# validate.pl - measure dtplan's error against real training runs on emulated
# hosts (docs/validation.md).
#
# For each configuration of validate/matrix.txt (or of --matrix FILE) it
#   1. measures what a user would have on one machine: the loader's CPU time
#      per sample (trainer --measure-loader) and one rank's step time with the
#      configuration's model, batch and loader (trainer --strategy none);
#   2. calibrates the network once per link rate, as a user of the cluster
#      would before predicting: `dtplan calibrate` across two emulated hosts,
#      --mpi for the trainer (it shares gradients with MPI), --coll-cmd
#      timing gloo's all-reduce for PyTorch DDP (ddp_train.py
#      --measure-allreduce); with --nominal, no calibration: the link's
#      nominal rate;
#      then writes a scenario: the emulated host as an inline instance (vCPUs,
#      the link's nominal rate, price, the profile), the model inline (parameters, forward
#      FLOPs), the single-rank step as workload.measured_step with
#      solve_for: compute, the loader cost as input.cpu_s_per_sample, and two
#      clusters: the single host and the configuration's cluster;
#   3. runs `dtplan --json` on it (the prediction);
#   4. creates the emulated hosts (validate/hosts.sh), measures the link with a
#      plain TCP transfer, runs the trainer across them with mpirun (the
#      measurement);
# A configuration with workload=ddp runs PyTorch DistributedDataParallel
# (validate/ddp_train.py: a torchvision model, a JPEG-decoding DataLoader,
# gloo) in place of the trainer, the same four steps; it needs Debian's
# python3-torch and python3-torchvision ($PYTHON, default /usr/bin/python3).
# then prints and writes the table (predicted, measured, error), the MAPE, the
# largest error and, for each group of configurations that differ only in the
# cluster, whether the predicted ranking equals the measured one.
#
# Usage: perl validate/validate.pl [--matrix FILE] [--out DIR] [--steps N]
#        [--only NAME,NAME] [--no-published] [--nominal] [--cal-tries N]
#        [--cal-maxbytes SIZE]
#        (--cal-tries: network calibrations of each link before its nominal
#        rate is kept, default 5; --cal-maxbytes: the MPI calibration's
#        largest message, default 8M)
#        perl validate/validate.pl --render JSON [--out DIR] [--prefix P]
#        (writes the report of an earlier run again, from its JSON, in the
#        current format; runs nothing)
# Needs root (network namespaces), mpirun, and $BUILD/dtplan and
# $BUILD/validate/trainer (make).  Exit status: 0 when every configuration ran,
# 1 when one failed, 2 for bad flags, 3 when namespaces cannot be made here.
use strict;
use warnings;
use Cwd qw(abs_path getcwd);
use File::Path qw(make_path);
use File::Temp qw(tempdir);
use JSON::PP;
use POSIX qw(strftime);

my $root = getcwd();
my $build = $ENV{BUILD} // 'build';
my $dtplan = "$root/$build/dtplan";
my $trainer = "$root/$build/validate/trainer";
my $python = $ENV{PYTHON} // '/usr/bin/python3';
my $ddp = "$root/validate/ddp_train.py";
# the JPEG files of the DDP runs, made once (ddp_train.py) and kept
my $ddp_data = "$root/$build/validate/ddp-jpeg";
my %opt = (matrix => "$root/validate/matrix.txt", out => "$root/results", steps => 15, only => '',
           published => 1, prefix => 'validation', nominal => 0, cal_tries => 5, cal_maxbytes => '8M');
while (@ARGV) {
    my $f = shift @ARGV;
    if ($f eq '--no-published') { $opt{published} = 0; next; }
    if ($f eq '--nominal') { $opt{nominal} = 1; next; }
    my $v = shift @ARGV;
    die "validate.pl: $f: expected a value\n" unless defined $v;
    if ($f eq '--matrix') { $opt{matrix} = $v }
    elsif ($f eq '--out') { $opt{out} = $v }
    elsif ($f eq '--prefix') { $opt{prefix} = $v }
    elsif ($f eq '--steps') {
        $v =~ /^[1-9][0-9]*$/ or do { print STDERR "validate.pl: --steps: expected a positive integer, found \"$v\"\n"; exit 2 };
        $opt{steps} = $v;
    }
    elsif ($f eq '--cal-tries') {
        $v =~ /^[1-9]$/ or do { print STDERR "validate.pl: --cal-tries: expected 1 to 9, found \"$v\"\n"; exit 2 };
        $opt{cal_tries} = $v;
    }
    elsif ($f eq '--cal-maxbytes') {
        $v =~ /^[1-9][0-9]*[KMG]?$/ or do { print STDERR "validate.pl: --cal-maxbytes: expected a size such as 8M, found \"$v\"\n"; exit 2 };
        $opt{cal_maxbytes} = $v;
    }
    elsif ($f eq '--only') { $opt{only} = $v }
    elsif ($f eq '--render') { $opt{render} = $v }
    else { print STDERR "validate.pl: $f: unknown flag\n"; exit 2 }
}
if (defined $opt{render}) {
    open(my $fh, '<', $opt{render}) or do { print STDERR "validate.pl: --render: cannot open $opt{render}: $!\n"; exit 2 };
    local $/;
    my $r = eval { decode_json(<$fh>) } or do { print STDERR "validate.pl: --render: $opt{render}: expected a report in JSON\n"; exit 2 };
    close $fh;
    $r->{by_workload} = by_workload($r->{rows});
    write_reports($r);
    exit 0;
}
-x $dtplan && -x $trainer or do { print STDERR "validate.pl: build first: $dtplan, $trainer\n"; exit 2 };

my $WARMUP = 3;
my $NCORES = `nproc` + 0 || 1;
my $tmp = tempdir('dtplan-validate.XXXXXX', TMPDIR => 1, CLEANUP => 1);
my $NET = $ENV{VALIDATE_NET} // '10.79.0';
my $NS = $ENV{VALIDATE_NS} // 'dvh';
# mpirun over the emulated hosts.  btl_tcp_flags send,inplace: without the
# emulated put protocol Open MPI streams a large message after one handshake;
# with it, control messages queue behind the peer's data on a shaped link and
# a bidirectional exchange runs at about half the link rate.
# --bind-to none: each emulated host's daemon would otherwise bind its one
# rank to core 0, so that every host's rank shares one core of the machine
# (and so would the single-rank copies, each started by its own mpirun).
# The machine may be shared with other work: the trainers run at a raised
# priority (nice -10) when allowed, the single-host measurements and the real
# runs alike, so that both see the same machine.
my @NICE = (getpwuid($<) eq 'root' || $< == 0) ? ('nice', '-n', '-10') : ();
my @MPI = (@NICE, 'mpirun', '--allow-run-as-root', '--oversubscribe', '--bind-to', 'none', '--mca', 'plm_rsh_agent',
           "$root/validate/agent.sh", '--mca', 'btl', 'tcp,self', '--mca', 'btl_tcp_if_include',
           "$NET.0/24", '--mca', 'oob_tcp_if_include', "$NET.0/24", '--mca', 'btl_tcp_flags',
           'send,inplace', '--mca', 'pml_ob1_send_pipeline_depth', '64', '--mca',
           'btl_tcp_max_send_size', '1048576', '--mca', 'mpi_yield_when_idle', '1');
# Open MPI's session directory is per user under /tmp: private ones keep
# concurrent launches (the single-rank copies, other jobs) apart.
# (validate/agent.sh gives each emulated host its own under this TMPDIR).
mkdir "$tmp/ompi";
$ENV{TMPDIR} = "$tmp/ompi";
my @MPI_LOCAL = (@NICE, 'mpirun', '--allow-run-as-root', '--oversubscribe', '--bind-to', 'none', '-np', '1', '--mca', 'btl', 'self');

my $CHILD = 0; # the command run_cmd waits for, killed on an interrupt
sub run_cmd {
    my (@cmd) = @_;
    my $out = '';
    $CHILD = open(my $fh, '-|', @cmd) or die "validate.pl: cannot run $cmd[0]: $!\n";
    { local $/; $out = <$fh> // ''; }
    close $fh;
    $CHILD = 0;
    return ($? >> 8, $out);
}

sub last_json {
    my ($text) = @_;
    my @l = grep { /^\{/ } split /\n/, $text;
    return undef unless @l;
    return eval { decode_json($l[-1]) };
}

# ---- the matrix ----
# Each line: NAME GROUP key=value ...; keys: hosts (train hosts), servers (PS
# hosts), rate (Mbit/s), strategy, bucket (MiB), lw (loader workers), batch,
# width, layers, decode (times each image is decoded), img, crop, prefetch; workload (mlp: the
# trainer, ddp: PyTorch DDP) and model (a torchvision model, for ddp).
# workload=ddp has its own defaults: batch 16, img 224 (the JPEG files' side),
# crop 64 (the model's input).
my @cfgs;
open(my $mf, '<', $opt{matrix}) or die "validate.pl: $opt{matrix}: cannot open: $!\n";
my $ln = 0;
while (my $line = <$mf>) {
    $ln++;
    $line =~ s/#.*//;
    next unless $line =~ /\S/;
    my ($name, $group, @kv) = split ' ', $line;
    my %c = (name => $name, group => $group, hosts => 2, servers => 0, rate => 100, strategy => 'ring',
             bucket => 25, lw => 0, batch => 32, width => 256, layers => 2, decode => 1, img => 40,
             crop => 32, prefetch => 2, workload => 'mlp', model => 'resnet18', first => 1);
    if (grep { $_ eq 'workload=ddp' } @kv) { @c{qw(batch img crop)} = (16, 224, 64) }
    for my $p (@kv) {
        my ($k, $v) = split /=/, $p, 2;
        exists $c{$k} && defined $v or die "$opt{matrix}:$ln: $p: unknown key or missing value\n";
        $c{$k} = $v;
    }
    $c{workload} =~ /^(mlp|ddp)$/ or die "$opt{matrix}:$ln: workload: expected mlp or ddp, found \"$c{workload}\"\n";
    $c{workload} eq 'mlp' || ($c{strategy} eq 'ring' && !$c{servers})
        or die "$opt{matrix}:$ln: strategy: expected ring for workload=ddp, found \"$c{strategy}\"\n";
    push @cfgs, \%c;
}
close $mf;
if ($opt{only} ne '') {
    my %want = map { $_ => 1 } split /,/, $opt{only};
    @cfgs = grep { $want{$_->{name}} } @cfgs;
}

# The DDP configurations need PyTorch and torchvision; without them they
# are left out, said once, and the others still run.
if (grep { $_->{workload} eq 'ddp' } @cfgs) {
    if (system("$python -c 'import torch, torchvision' > /dev/null 2>&1") != 0) {
        my $n = grep { $_->{workload} eq 'ddp' } @cfgs;
        print STDERR "validate.pl: $python cannot import torch and torchvision: the $n PyTorch DDP "
            . "configurations are left out (set PYTHON to an interpreter that has them)\n";
        @cfgs = grep { $_->{workload} ne 'ddp' } @cfgs;
    }
}

if (system('sh', "$root/validate/hosts.sh", 'check') != 0) {
    print STDERR "validate.pl: cannot create network namespaces here (root, iproute2 and tc needed)\n";
    exit 3;
}
$SIG{INT} = $SIG{TERM} = sub {
    kill('KILL', $CHILD) if $CHILD;
    system('sh', "$root/validate/hosts.sh", 'down');
    exit 130;
};

sub model_flags {
    my ($c) = @_;
    # DDP's bucket sizes too: the single-host run reports the buckets DDP forms
    return ('--model', $c->{model}, '--batch', $c->{batch}, '--img', $c->{img}, '--crop', $c->{crop},
            '--loader-workers', $c->{lw}, '--prefetch', $c->{prefetch}, '--data', $ddp_data,
            '--bucket-mb', $c->{bucket}, '--first-bucket-mb', $c->{first})
        if $c->{workload} eq 'ddp';
    return ('--batch', $c->{batch}, '--width', $c->{width}, '--layers', $c->{layers}, '--decode-passes',
            $c->{decode}, '--img', $c->{img}, '--crop', $c->{crop}, '--loader-workers', $c->{lw},
            '--prefetch', $c->{prefetch});
}

# ---- the machine, once: the loader's cost per sample for each kernel setting ----
my %loader_cost;
sub loader_cost {
    my ($c) = @_;
    my $key = "$c->{workload}/$c->{decode}/$c->{img}/$c->{crop}/$c->{batch}";
    return $loader_cost{$key} if exists $loader_cost{$key};
    my ($rc, $out) = $c->{workload} eq 'ddp'
        ? run_cmd(@NICE, $python, $ddp, '--measure-loader', 512, model_flags($c))
        : run_cmd(@MPI_LOCAL, '--mca', 'orte_tmpdir_base', "$tmp/ompi", $trainer, '--measure-loader', 400, '--decode-passes', $c->{decode},
                             '--img', $c->{img}, '--crop', $c->{crop});
    my $j = last_json($out);
    die "validate.pl: loader measurement failed:\n$out\n" if $rc || !$j;
    return $loader_cost{$key} = $j->{loader_s_per_sample};
}

# One rank's step without communication, `hosts` copies at once; the mean of
# their medians.
sub single_rank {
    my ($c) = @_;
    my @fh;
    for my $i (1 .. $c->{hosts}) {
        mkdir "$tmp/ompi$i";
        my @cmd = $c->{workload} eq 'ddp' ? (@NICE, $python, $ddp)
            : (@MPI_LOCAL, '--mca', 'orte_tmpdir_base', "$tmp/ompi$i", $trainer);
        open(my $fh, '-|', @cmd, '--strategy', 'none', '--steps', $opt{steps}, '--warmup',
             $WARMUP, '--seed', $i, model_flags($c)) or return undef;
        push @fh, $fh;
    }
    my ($sum, $cv, $n, $j) = (0, 0, 0, undef);
    for my $fh (@fh) {
        local $/;
        my $out = <$fh> // '';
        close $fh;
        my $r = last_json($out);
        next if $? || !$r;
        $sum += $r->{p50_step_s};
        $cv += $r->{cv_step} // 0;
        $n++;
        $j = $r;
    }
    return undef unless $n == $c->{hosts};
    $j->{p50_step_s} = $sum / $n;
    $j->{cv_step} = $cv / $n;
    return $j;
}

# ---- the network, once per workload and link rate: dtplan calibrate ----
# Two emulated hosts on the configuration's link; the MPI trainer's
# collectives (dtplan calibrate --mpi under mpirun: ring, MPI_Allreduce, PS),
# or gloo's all-reduce for DDP, timed through ddp_train.py by
# `dtplan calibrate --coll-cmd`.  The profile's fitted link then replaces
# the nominal rate in the scenario.  Returns the profile's path, or undef.
my (%net_profile, %net_link);
# Synchronous PS calibrates on three hosts, so that a server pulls to two
# workers and the profile gets how unevenly those pulls end (pull_overlap).
sub net_key {
    my ($c) = @_;
    my $nh = $c->{strategy} eq 'ps_sync' ? 3 : 2;
    return ("$c->{workload}-$c->{rate}" . ($nh > 2 ? "-h$nh" : ''), $nh);
}
sub net_profile {
    my ($c) = @_;
    my ($key, $nh) = net_key($c);
    return $net_profile{$key} if exists $net_profile{$key};
    my $prof = "$tmp/profile-$key.json";
    my @h = ('--host', join(',', map { "$NET.$_" } 1 .. $nh));
    my ($rc, $out);
    if (system('sh', "$root/validate/hosts.sh", 'up', $nh, $c->{rate}) != 0) {
        print STDERR "validate.pl: $key: cannot create the hosts to calibrate\n";
        return $net_profile{$key} = undef;
    }
    my ($j, $tr) = (undef, $c->{workload} eq 'ddp' ? 'cmd' : 'mpi');
    # A calibration that fails (an MPI launch beside other jobs) or whose
    # all-reduce fit the calibration marks poor (a noisy run on the emulated
    # link, as when the machine is busy with other tests) is run again, up to
    # --cal-tries in all, before the nominal rate is kept, each after a pause
    # longer than the last (5, 10, 15, 20 s), so that the jobs beside it may
    # have ended.  What went wrong each time goes to standard error, and a
    # profile whose fits stayed poor says so in the report (link_unused).
    my @why;
    my $failed = 0;
    for my $attempt (1 .. $opt{cal_tries}) {
        sleep 5 * ($attempt - 1) if $attempt > 1;
        unlink $prof;
        if ($c->{workload} eq 'ddp') {
            my $cmd = join(' ', @MPI, '-np', 2, @h, $python, $ddp, '--measure-allreduce',
                           '$(awk "BEGIN{print $DTPLAN_BYTES/1e6}")', '--steps', '$DTPLAN_ITERS', '--warmup', 1,
                           '--master', "$NET.1", '--port', '$((29000 + DTPLAN_BYTES % 997))', '--ifname', 'eth0',
                           '--data', $ddp_data);
            # 1 to 64 MiB by x2, the sizes DDP's buckets have (its first is
            # 1 MiB); 3 timed operations each (--quick) keep it to about a minute
            ($rc, $out) = run_cmd($dtplan, 'calibrate', '--coll-cmd', $cmd, '--coll-ranks', 2, '--quick',
                                  '--minbytes', '1M', '--maxbytes', '64M', '--stepfactor', 2, '--instance',
                                  'emu.host', '-o', $prof);
        } else {
            # 8 B to 8 MiB by x4 (--quick's sizes, up to the trainers' 3.4 and
            # 8.4 MB gradients; --cal-maxbytes)
            ($rc, $out) = run_cmd(@MPI, '-np', $nh, @h, $dtplan, 'calibrate', '--mpi', '--quick', '--maxbytes',
                                  $opt{cal_maxbytes},
                                  '--instance', 'emu.host', '-o', $prof);
        }
        if ($rc || !-f $prof) {
            my ($last) = grep { /\S/ } reverse split /\n/, $out;
            push @why, "status $rc" . ($last ? ": $last" : '');
            $failed++;
            print STDERR "validate: $key: calibration $attempt failed (status $rc)\n$out";
            $j = undef;
            next;
        }
        $j = eval { local $/; open(my $fh, '<', $prof) or die; decode_json(<$fh>) };
        my @ar = grep { $_->{transport} eq $tr && $_->{name} =~ /allreduce/ } @{($j // {})->{collectives} // []};
        last if grep { !$_->{poor_fit} } @ar;
        push @why, @ar ? join(', ', map { sprintf "%s %.0f%%", $_->{name}, 100 * ($_->{rms_rel_residual} // 0) } @ar)
                       : 'no all-reduce in the profile';
        print STDERR "validate: $key: calibration $attempt: the all-reduce fit is poor ($why[-1])\n";
    }
    system('sh', "$root/validate/hosts.sh", 'down');
    if (!$j) {
        # the last try failed outright; earlier ones may have run with poor fits
        my $poor = @why - $failed;
        print STDERR "validate.pl: $key: no usable network calibration in $opt{cal_tries} tries (" .
            "$failed failed" . ($poor ? ", $poor with a poor all-reduce fit" : '') . "): " .
            join('; ', @why) . "\n";
        return $net_profile{$key} = undef;
    }
    if (@why == $opt{cal_tries}) {
        $net_link{$key}{unused} = "no good all-reduce fit in $opt{cal_tries} calibrations (relative RMS " .
            "residual: " . join('; ', @why) . ")";
        print STDERR "validate.pl: $key: $net_link{$key}{unused}; the nominal rate stands\n";
    }
    for my $kind ('allreduce', 'pushpull') {
        my ($best) = grep { $_->{transport} eq $tr && $_->{name} =~ /$kind/ && !$_->{poor_fit} &&
                            ($_->{link_GBps} // 0) > 0 } @{$j->{collectives} // []};
        next unless $best;
        $net_link{$key}{$kind} = { transport => $best->{transport}, collective => $best->{name},
                                   link_mbit => $best->{link_GBps} * 8e3, alpha_s => $best->{alpha_s} };
        printf STDERR "validate: %s: calibrated %s %s: %.1f Mbit/s (nominal %s)\n", $key, $best->{transport},
            $best->{name}, $best->{link_GBps} * 8e3, $c->{rate};
    }
    my ($ps) = grep { $_->{name} =~ /pushpull/ && $_->{pull_overlap} } @{$j->{collectives} // []};
    if ($ps) {
        $net_link{$key}{first_pull_frac} = $ps->{pull_overlap}{first_pull_frac};
        printf STDERR "validate: %s: first of %d pulls ends at %.3f of the pull\n", $key,
            $ps->{pull_overlap}{workers}, $ps->{pull_overlap}{first_pull_frac};
    }
    return $net_profile{$key} = $prof;
}

sub scenario_yaml {
    my ($c, $m) = @_;
    my $strat = $c->{strategy};
    my $ps = $strat =~ /^ps_/;
    my $ddpw = $c->{workload} eq 'ddp';
    my $mname = $ddpw ? "emu-$c->{model}" : 'emu-mlp';
    my $y = "name: $c->{name}\n";
    $y .= "catalog:\n  instances:\n";
    $y .= sprintf("    - {name: emu.host, vcpus: 2, network_gbps: %.6g, price_usd_h: 1.0, cpu_speed: %.6g,\n" .
                  "       source: \"emulated host: network namespace, tbf-shaped link\"%s}\n", $c->{rate} / 1000,
                  $m->{cpu_speed}, $m->{profile} ? ", profile: \"$m->{profile}\"" : '');
    $y .= "  models:\n";
    $y .= sprintf("    - {name: %s, family: %s, params: %d, fwd_gflops: %.9g, input: \"%dx%dx3\"}\n",
                  $mname, $ddpw ? 'cnn' : 'mlp', $m->{params}, $m->{fwd_flops} / 1e9, $c->{crop}, $c->{crop});
    $y .= "workload:\n  model: $mname\n  batch_per_gpu: $c->{batch}\n  optimizer_bytes_per_param: 12\n";
    $y .= sprintf("  measured_step: {cluster: single, step_s: %.6g, solve_for: compute}\n", $m->{single_step_s});
    $y .= sprintf("input:\n  cpu_s_per_sample: %.6g\n  loader_workers: %d\n  prefetch: %d\n",
                  $m->{loader_s}, $c->{lw}, $c->{lw} ? $c->{prefetch} : 0);
    # The trainer shares gradients after backward; DDP all-reduces each
    # bucket as soon as its gradients are ready, during the backward pass.
    $y .= "gradients:\n  strategy: $strat\n  bucket_mb: $c->{bucket}\n  overlap: " . ($ddpw ? 'true' : 'false') . "\n";
    # DDP's own buckets (whole tensors, the first closed at 1 MiB), as the
    # single-rank run reports them from the model.
    $y .= "  buckets_mb: [" . join(', ', map { sprintf('%.6g', $_ / 1048576) } @{$m->{buckets}}) . "]\n"
        if $ddpw && $m->{buckets} && @{$m->{buckets}};
    # The trainer's worker pulls bucket b before it pushes b+1 (ps_exchange
    # in trainer.c): a serial parameter server.  Its synchronous server takes
    # the workers' pushes one blocking receive at a time (ps_serve): in turn.
    $y .= "  ps: {count: $c->{servers}, placement: dedicated, pipeline: false"
        . ($c->{strategy} eq 'ps_sync' ? ', receive: in_turn' : '') . "}\n" if $ps;
    $y .= "clusters:\n  - name: single\n    strategy: ring\n    groups:\n      - {role: train, instance: emu.host, count: 1}\n";
    $y .= "  - name: cluster\n    groups:\n      - {role: train, instance: emu.host, count: $c->{hosts}}\n";
    $y .= "      - {role: ps, instance: emu.host, count: $c->{servers}}\n" if $ps;
    # The single-host steps' spread (a robust coefficient of variation) as
    # the jitter: a synchronous step waits for the slowest host.  200
    # simulated steps make the predicted median steady.
    $y .= sprintf("simulation: {seed: 1, steps: 200, warmup: 3, jitter_cv: %.4g}\n", $m->{jitter});
    return $y;
}

# The load average before and after: the runs assume a quiet machine.
sub loadavg { open(my $fh, '<', '/proc/loadavg') or return undef; my @f = split ' ', <$fh>; close $fh; return "@f[0..2]" }
my $load_before = loadavg();
my @rows;
my $failed = 0;
for my $c (@cfgs) {
    my %m;
    print STDERR "validate: $c->{name} ...\n";
    # 1. what a user has: the loader per sample, one rank's step
    $m{loader_s} = loader_cost($c);
    # The hosts share this machine's cores: the speed of one vCPU of an
    # emulated host, relative to the core the loader was measured on alone,
    # is the machine's cores over the hosts (one busy thread per host: the
    # loader thread and the compute thread mostly wait for each other).
    $m{cpu_speed} = $NCORES / $c->{hosts};
    $m{cpu_speed} = 1 if $m{cpu_speed} > 1;
    # The emulated hosts share this machine's cores: one host's step is
    # measured with as many single-rank copies running at once as the
    # cluster has train hosts, so that it is the speed a host has in it.
    my $j = single_rank($c);
    if (!$j) { print STDERR "validate.pl: $c->{name}: single-rank run failed\n"; $failed++; next; }
    $m{single_step_s} = $j->{p50_step_s};
    $m{params} = $j->{params};
    $m{fwd_flops} = $j->{fwd_flops_per_sample};
    $m{buckets} = $j->{buckets_bytes};
    $m{jitter} = $j->{cv_step} < 0.99 ? $j->{cv_step} : 0.99;   # dtplan takes at most 1
    my ($rc, $out);
    if (!$opt{nominal}) {
        $m{profile} = net_profile($c);
        if (!$m{profile}) { $failed++; next; }
    }
    # 2-3. the scenario and the prediction
    my $yaml = scenario_yaml($c, \%m);
    my $yf = "$tmp/$c->{name}.yaml";
    open(my $yh, '>', $yf) or die "validate.pl: $yf: $!\n";
    print $yh $yaml;
    close $yh;
    ($rc, $out) = run_cmd($dtplan, '--json', '-q', $yf);
    my $p = $rc ? undef : eval { decode_json($out) };
    if (!$p) { print STDERR "validate.pl: $c->{name}: dtplan failed (status $rc)\n$out"; $failed++; next; }
    my ($pc) = grep { $_->{name} eq 'cluster' } @{$p->{clusters}};
    my $pred = $pc->{step_time_s}{p50};
    # 4. the real run on emulated hosts
    my $nh = $c->{hosts} + $c->{servers};
    if (system('sh', "$root/validate/hosts.sh", 'up', $nh, $c->{rate}) != 0) {
        print STDERR "validate.pl: $c->{name}: cannot create the hosts\n"; $failed++; next;
    }
    my $tcp = 'null';
    {
        my $port = 5900 + int(rand(90));
        my $pid = fork();
        if (defined $pid && $pid == 0) {
            exec('ip', 'netns', 'exec', "${NS}2", 'perl', "$root/validate/tcprate.pl", 'serve', $port);
            exit 127;
        }
        my $mb = $c->{rate} >= 500 ? 32 : 4;
        my ($trc, $tout) = run_cmd('ip', 'netns', 'exec', "${NS}1", 'perl', "$root/validate/tcprate.pl", 'send',
                                   "$NET.2", $port, $mb);
        waitpid($pid, 0);
        $tcp = $1 if !$trc && $tout =~ /^([0-9.]+)/;
    }
    my @hosts = map { "$NET.$_" } 1 .. $nh;
    my @args = ('--strategy', $c->{strategy}, '--bucket-mb', $c->{bucket}, '--steps', $opt{steps}, '--warmup',
                $WARMUP, model_flags($c));
    push @args, ('--servers', $c->{servers}) if $c->{servers} > 0;
    my @prog = ($trainer);
    if ($c->{workload} eq 'ddp') {
        # gloo over the emulated link (eth0 in each namespace); rank 0's
        # host is the rendezvous
        @prog = ($python, $ddp);
        @args = ('--steps', $opt{steps}, '--warmup', $WARMUP, model_flags($c),
                 '--master', "$NET.1", '--port', 29400 + int(rand(500)), '--ifname', 'eth0');
    }
    # A launch that fails before the summary (Open MPI's daemons starting
    # on hosts that share a machine) is launched again, at most three times.
    for my $try (1 .. 3) {
        ($rc, $out) = run_cmd(@MPI, '-np', $nh, '--host', join(',', @hosts), @prog, @args);
        last unless $rc && !last_json($out);
        print STDERR "validate: $c->{name}: the launch failed before the summary (status $rc), again\n";
    }
    system('sh', "$root/validate/hosts.sh", 'down');
    $j = last_json($out);
    if ($rc || !$j) { print STDERR "validate.pl: $c->{name}: the real run failed (status $rc)\n$out"; $failed++; next; }
    my $meas = $j->{p50_step_s};
    my ($nk) = net_key($c);
    push @rows, {
        name => $c->{name}, group => $c->{group}, config => {%$c},
        inputs => { loader_s_per_sample => $m{loader_s} + 0, single_rank_step_s => $m{single_step_s} + 0,
                    cpu_speed => $m{cpu_speed} + 0, params => $m{params} + 0, fwd_gflops => $m{fwd_flops} / 1e9,
                    $m{buckets} ? (buckets_mb => [map { $_ / 1048576 } @{$m{buckets}}]) : (),
                    jitter_cv => $m{jitter} + 0,
                    solved_compute_s => $p->{solved} ? $p->{solved}{value} : undef,
                    # [0, hi] when the single rank's step only bounds compute (loader-bound)
                    solved_compute_range_s => $p->{solved} ? $p->{solved}{range} : undef,
                    link_nominal_mbit => $c->{rate} + 0, link_tcp_mbit => $tcp eq 'null' ? undef : $tcp + 0,
                    link_calibrated => $m{profile} ? $net_link{$nk}{
                        $c->{strategy} =~ /^ps_/ && $net_link{$nk}{pushpull} ? 'pushpull' : 'allreduce'} : undef,
                    first_pull_frac => $m{profile} ? $net_link{$nk}{first_pull_frac} : undef,
                    link_unused => $m{profile} ? $net_link{$nk}{unused} : undef,
                    profile => $m{profile} ? "$opt{prefix}-profiles/$nk.json" : undef },
        predicted_s => $pred + 0, measured_s => $meas + 0,
        predicted_breakdown_s => $pc->{breakdown_s}, measured_breakdown_s => {
            load => $j->{load_s}, compute => $j->{compute_s}, comm => $j->{comm_s}, optim => $j->{optim_s},
            fwd_bwd => $j->{fwd_bwd_s} },
        measured_mean_s => $j->{mean_step_s}, measured_p95_s => $j->{p95_step_s},
        error_pct => 100 * ($pred - $meas) / $meas,
        scenario => $yaml,
    };
    printf STDERR "validate: %-22s predicted %8.1f ms  measured %8.1f ms  error %+6.1f%%\n", $c->{name},
        1e3 * $pred, 1e3 * $meas, $rows[-1]{error_pct};
}

# ---- summary ----
my ($sum, $max) = (0, 0);
$sum += abs($_->{error_pct}) for @rows;
for (@rows) { $max = abs($_->{error_pct}) if abs($_->{error_pct}) > $max }
my $mape = @rows ? $sum / @rows : undef;
my %groups;
push @{$groups{$_->{group}}}, $_ for @rows;
my @rank;
for my $g (sort keys %groups) {
    my @r = @{$groups{$g}};
    next if @r < 2;
    my @bp = map { $_->{name} } sort { $a->{predicted_s} <=> $b->{predicted_s} } @r;
    my @bm = map { $_->{name} } sort { $a->{measured_s} <=> $b->{measured_s} } @r;
    push @rank, { group => $g, predicted => \@bp, measured => \@bm, same => ("@bp" eq "@bm") ? JSON::PP::true : JSON::PP::false };
}

my $uname = `uname -srm`; chomp $uname;
my $cpu = `grep -m1 'model name' /proc/cpuinfo`; $cpu =~ s/.*:\s*//; chomp $cpu;
my $ncpu = `nproc`; chomp $ncpu;
my $mpiv = `mpirun --version 2>/dev/null | head -1`; chomp $mpiv;
my $dtv = `$dtplan --version 2>/dev/null`; chomp $dtv;
my $gitv = `git -C $root rev-parse --short HEAD 2>/dev/null`; chomp $gitv;
my $date = strftime('%Y-%m-%dT%H:%M:%SZ', gmtime);
my $report = {
    date => $date, machine => { kernel => $uname, cpu => $cpu, cores => $ncpu + 0,
                                load_average_before => $load_before, load_average_after => loadavg() },
    versions => { dtplan => $dtv, commit => $gitv, mpi => $mpiv },
    steps => $opt{steps} + 0, warmup => $WARMUP, statistic => 'median step time (p50)',
    rows => \@rows, mape_pct => $mape, max_error_pct => $max, ranking => \@rank, failed => $failed,
    by_workload => by_workload(\@rows),
};

# published and seed cases, predicted against their published numbers
if ($opt{published} && -f "$root/validate/published.pl") {
    my ($prc, $pout) = run_cmd('perl', "$root/validate/published.pl");
    my $pj = $prc ? undef : eval { decode_json($pout) };
    $report->{published} = $pj if $pj;
}

# the network profiles the predictions used, kept beside the report
# (OUT/PREFIX-profiles/KEY.json, named in each row's inputs)
for my $key (sort keys %net_profile) {
    my $src = $net_profile{$key} or next;
    my $dir = "$opt{out}/$opt{prefix}-profiles";
    make_path($dir);
    open(my $in, '<', $src) or next;
    local $/;
    my $text = <$in>;
    close $in;
    open(my $out, '>', "$dir/$key.json.tmp") or die "validate.pl: $dir/$key.json: $!\n";
    print $out $text;
    close $out or die "validate.pl: $dir/$key.json: $!\n";
    rename("$dir/$key.json.tmp", "$dir/$key.json") or die "validate.pl: $dir/$key.json: $!\n";
}
write_reports($report);
exit($failed ? 1 : 0);

sub write_reports {
    my ($r) = @_;
    make_path($opt{out});
    my $json = JSON::PP->new->canonical->pretty->encode($r);
    my $md = markdown($r);
    for my $f ([ "$opt{out}/$opt{prefix}.json", $json ], [ "$opt{out}/$opt{prefix}.md", $md ]) {
        open(my $fh, '>', "$f->[0].tmp") or die "validate.pl: $f->[0]: $!\n";
        print $fh $f->[1];
        close $fh or die "validate.pl: $f->[0]: $!\n";
        rename("$f->[0].tmp", $f->[0]) or die "validate.pl: $f->[0]: $!\n";
    }
    print $md;
}

# MAPE and the largest error of each workload (the trainer, PyTorch DDP).
sub by_workload {
    my ($rows) = @_;
    my %w;
    for my $x (@$rows) {
        my $k = $x->{config}{workload} // 'mlp';
        my $e = abs($x->{error_pct});
        $w{$k}{n}++;
        $w{$k}{sum} += $e;
        $w{$k}{max} = $e if $e > ($w{$k}{max} // 0);
    }
    return { map { $_ => { configurations => $w{$_}{n}, mape_pct => $w{$_}{sum} / $w{$_}{n},
                           max_error_pct => $w{$_}{max} } } keys %w };
}

sub markdown {
    my ($r) = @_;
    my $s = "# dtplan validation: predicted against measured step times\n\n";
    $s .= "Date: $r->{date}  \nMachine: $r->{machine}{cpu}, $r->{machine}{cores} cores, $r->{machine}{kernel}  \n";
    $s .= "Load average (1, 5, 15 min) before the runs: $r->{machine}{load_average_before}, after: $r->{machine}{load_average_after}  \n"
        if defined $r->{machine}{load_average_before};
    $s .= "Versions: dtplan $r->{versions}{dtplan} ($r->{versions}{commit}), $r->{versions}{mpi}  \n";
    $s .= "Statistic: $r->{statistic} over $r->{steps} steps after $r->{warmup} warm-up steps\n\n";
    $s .= "## Real runs on emulated hosts\n\n";
    $s .= "| configuration | group | workload | cluster | strategy | link Mbit/s (TCP; calibrated) | bucket MiB | loader workers | predicted ms | measured ms | error % |\n";
    $s .= "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for my $w (@{$r->{rows}}) {
        my $c = $w->{config};
        my $cl = "$c->{hosts} workers" . ($c->{servers} ? " + $c->{servers} PS" : '');
        my $wl = ($c->{workload} // 'mlp') eq 'ddp' ? "PyTorch DDP $c->{model}, batch $c->{batch}"
            : "MPI trainer (MLP $c->{layers}x$c->{width}, batch $c->{batch})";
        my $cal = $w->{inputs}{link_calibrated};
        $s .= sprintf("| %s | %s | %s | %s | %s | %d (%s; %s) | %s | %d | %.1f | %.1f | %+.1f |\n", $w->{name}, $w->{group},
                      $wl, $cl, $c->{strategy}, $c->{rate}, defined $w->{inputs}{link_tcp_mbit}
                      ? sprintf('%.1f', $w->{inputs}{link_tcp_mbit}) : '-',
                      $cal ? sprintf('%.1f %s %s', $cal->{link_mbit}, $cal->{transport}, $cal->{collective}) : 'nominal', $c->{bucket}, $c->{lw},
                      1e3 * $w->{predicted_s}, 1e3 * $w->{measured_s}, $w->{error_pct});
    }
    $s .= sprintf("\nMAPE: %s  \nLargest error: %.1f%%  \nFailed runs: %d  \n", defined $r->{mape_pct}
                  ? sprintf('%.1f%%', $r->{mape_pct}) : '-', $r->{max_error_pct}, $r->{failed});
    for my $k (sort keys %{$r->{by_workload} // {}}) {
        my $b = $r->{by_workload}{$k};
        $s .= sprintf("%s: %d configurations, MAPE %.1f%%, largest error %.1f%%  \n",
                      $k eq 'ddp' ? 'PyTorch DDP' : 'MPI trainer', $b->{configurations}, $b->{mape_pct},
                      $b->{max_error_pct});
    }
    $s .= "\n## Ranking within groups (configurations that differ only in the cluster)\n\n";
    $s .= "| group | predicted order | measured order | same |\n|---|---|---|---|\n";
    for my $g (@{$r->{ranking}}) {
        $s .= sprintf("| %s | %s | %s | %s |\n", $g->{group}, join(' < ', @{$g->{predicted}}),
                      join(' < ', @{$g->{measured}}), $g->{same} ? 'yes' : 'no');
    }
    $s .= "\n## Breakdown (ms per step: predicted / measured)\n\n";
    $s .= "| configuration | compute+load pred | comm pred | compute meas | load meas | comm meas |\n|---|---|---|---|---|---|\n";
    for my $w (@{$r->{rows}}) {
        my $pb = $w->{predicted_breakdown_s} // {};
        my $mb = $w->{measured_breakdown_s};
        $s .= sprintf("| %s | %.1f | %.1f | %.1f | %.1f | %s |\n", $w->{name},
                      1e3 * (($pb->{compute} // 0) + ($pb->{data_stall} // 0)), 1e3 * ($pb->{exposed_comm} // 0),
                      1e3 * $mb->{compute}, 1e3 * $mb->{load}, defined $mb->{comm} ? sprintf('%.1f', 1e3 * $mb->{comm}) : '-');
    }
    $s .= "\nFor PyTorch DDP the measured compute is forward + backward + optimizer and includes the all-reduce\n" .
          "time the backward pass waits for; DDP gives no separate communication time.\n"
        if grep { ($_->{config}{workload} // '') eq 'ddp' } @{$r->{rows}};
    if ($r->{published}) {
        $s .= "\n## Published and seed cases\n\n";
        $s .= "| case | source | cluster | predicted | published | error % | inputs |\n|---|---|---|---|---|---|---|\n";
        for my $p (@{$r->{published}{rows}}) {
            $s .= sprintf("| %s | %s | %s | %.4g %s | %.4g %s | %s | %s |\n", $p->{case}, $p->{source}, $p->{cluster},
                          $p->{predicted}, $p->{unit}, $p->{published}, $p->{unit},
                          defined $p->{error_pct} ? sprintf('%+.1f', $p->{error_pct}) : '-', $p->{inputs});
        }
        $s .= "\n$_\n" for @{$r->{published}{notes} // []};
    }
    return $s;
}
