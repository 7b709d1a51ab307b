#!/bin/sh
# suite_netns.sh - the MPI calibration across emulated hosts on one machine.
#
# Starts three hosts as network namespaces on a bridge, every link shaped by
# tbf in both directions (each host's egress, and the bridge port toward it
# for its ingress), measures each link's effective rate
# with a plain TCP transfer (tcprate), runs the MPI calibration
# (calib_mpi_main) with mpirun through a launch agent that runs each rank in
# its namespace: on 2 hosts (8 B to 8 MiB) and on 3 hosts (384 KiB to 6 MiB,
# sizes the first run never used), and checks with predict: each fitted link
# rate within 10% of the TCP rate, and the simulator's ring and PS times for
# 3 hosts, from the 2-host fits, within 10% of the measured ones (the ring is
# a known gap: docs/collectives.md).  Runs with DT_NETNS=1; prints
# "skip - netns: <reason>" otherwise and where namespaces are not permitted.  Environment: DT_NETNS_RATE, DT_NETNS_LAT,
# DT_NETNS_BURST (tbf), DT_NETNS_POLL (rank wait sleep, s),
# DT_NETNS_FIT_HOSTS, DT_NETNS_MEAS_HOSTS, DT_NETNS_KEEP (a folder that
# receives the two calibrations).
BUILD=${BUILD:-build}
RATE=${DT_NETNS_RATE:-300mbit}
LAT=${DT_NETNS_LAT:-20ms}
BURST=${DT_NETNS_BURST:-10kb}
POLL=${DT_NETNS_POLL:-0.00005}
B="$BUILD/netns"

skip() { echo "skip - netns: $*"; exit 0; }

# Opt-in (about 45 s): on this shared 2-core machine a PS prediction still
# lands just past 10% at one size in about one run in four
# (docs/collectives.md), and make test must not depend on the machine's load.
[ "${DT_NETNS:-0}" != 0 ] || skip "set DT_NETNS=1 to run the emulated multi-host test (root, about 45 s)"

[ "$(id -u)" -eq 0 ] || skip "needs root for network namespaces"
for t in ip tc mpirun; do
    command -v $t >/dev/null 2>&1 || skip "$t not found"
done
for p in tcprate calib_mpi_main predict; do
    [ -x "$B/$p" ] || skip "$B/$p not built (make units)"
done

id=$$
pre="dt${id}h"
br="dt${id}b"
tmp=$(mktemp -d /tmp/dt_netns.XXXXXX)
FIT_HOSTS=${DT_NETNS_FIT_HOSTS:-1 2}
MEAS_HOSTS=${DT_NETNS_MEAS_HOSTS:-1 2 3}
hosts=$MEAS_HOSTS

cleanup() {
    for h in $hosts; do
        ip netns del "$pre$h" 2>/dev/null
        ip link del "dt${id}v$h" 2>/dev/null
    done
    ip link del "$br" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM HUP PIPE

ip netns add "${pre}1" 2>"$tmp/err" || skip "ip netns add: $(head -1 "$tmp/err")"

# A /24 no other run uses: 10.77.X.0 from X = the process id on, held for
# the run (tests/subnet.sh).  The names above hold the process id, and the
# TCP port of tcprate is bound inside this run's namespaces.
. tests/subnet.sh
subnet_claim 10.77 "$id" || { echo "FAIL - netns: no free 10.77.X.0/24"; exit 0; }
net=$subnet
# One suite measuring emulated links at a time, across runs.
subnet_turn 900 || { echo "FAIL - netns: another run measured emulated links for 900 s; no turn"; exit 0; }

# tbf at RATE on one interface's egress, with a queue of LAT: deep enough
# for one TCP flow to keep the link busy (with 5 ms it reaches 95% of what
# two flows reach), short enough not to hold the acknowledgements of the
# other direction behind seconds of data; and a small BURST, so that the
# link has one rate (a 64 KiB burst makes messages up to ~1 MiB faster).
shape() { # "tc command" dev
    $1 qdisc add dev "$2" root tbf rate "$RATE" burst "$BURST" latency "$LAT" 2>"$tmp/err" ||
        skip "tc tbf on $2: $(head -1 "$tmp/err")"
}

ip link add "$br" type bridge 2>"$tmp/err" || skip "bridge: $(head -1 "$tmp/err")"
ip addr add "$net.254/24" dev "$br" && ip link set "$br" up || skip "bridge address"
for h in $hosts; do
    [ -e "/var/run/netns/$pre$h" ] || ip netns add "$pre$h" || skip "ip netns add $pre$h"
    v="dt${id}v$h"
    ip link add "$v" type veth peer name eth0 netns "$pre$h" 2>"$tmp/err" || skip "veth: $(head -1 "$tmp/err")"
    ip link set "$v" master "$br"
    ip link set "$v" up
    ip -n "$pre$h" addr add "$net.$h/24" dev eth0
    ip -n "$pre$h" link set eth0 up
    ip -n "$pre$h" link set lo up
    shape "ip netns exec $pre$h tc" eth0
    shape tc "$v"
done

# Effective rate of each host's link: 16 MiB from host h to the next one,
# timed by the receiver past the first 2 MiB.
min=""
for h in $hosts; do
    n=$((h % $(echo $hosts | wc -w) + 1))
    ip netns exec "$pre$n" "$B/tcprate" recv 5201 >"$tmp/rate" &
    ip netns exec "$pre$h" "$B/tcprate" send "$net.$n" 5201 16777216
    wait
    r=$(cat "$tmp/rate")
    [ -n "$r" ] || { echo "FAIL - netns: no TCP transfer from host $h to host $n"; exit 0; }
    echo "# netns: TCP rate host $h -> host $n: $r B/s (tbf $RATE)"
    if [ -z "$min" ] || [ "$r" -lt "$min" ]; then min=$r; fi
done

cat > "$tmp/agent" <<AGENT
#!/bin/sh
# mpirun's launch agent: runs the command for host $net.N in namespace ${pre}N.
host=\$1; shift
exec ip netns exec "$pre\${host##*.}" sh -c "\$*"
AGENT
chmod +x "$tmp/agent"

mpi() { # out min max step np hostlist
    ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe -np $5 --host "$6" \
        -x ASAN_OPTIONS --bind-to none --mca mpi_yield_when_idle 1 --mca plm_rsh_agent "$tmp/agent" \
        --mca btl tcp,self --mca btl_tcp_if_include "$net.0/24" --mca oob_tcp_if_include "$net.0/24" \
        --mca btl_tcp_flags send,inplace --mca pml_ob1_send_pipeline_depth 64 \
        --mca btl_tcp_max_send_size 1048576 \
        "$(pwd)/$B/calib_mpi_main" "$1" "$2" "$3" "$4" 1 "$POLL" >"$1.log" 2>&1
}

run_mpi() { # out min max step host...
    out=$1; lo=$2; hi=$3; f=$4; shift 4
    list=""; np=0
    for h in "$@"; do list="$list${list:+,}$net.$h"; np=$((np + 1)); done
    # A launch that never started the ranks (Open MPI's daemons failing to
    # call back, seen about once in ten runs) is tried once more.
    if ! mpi "$out" "$lo" "$hi" "$f" $np "$list" && [ ! -s "$out" ]; then
        echo "# netns: mpirun on $np hosts did not start: $(grep -m1 -i 'orte\|daemon' "$out.log"); again"
        mpi "$out" "$lo" "$hi" "$f" $np "$list" ||
            { sed 's/^/# /' "$out.log"; echo "FAIL - netns: mpirun on $np hosts failed (log above)"; exit 0; }
    fi
    [ -s "$out" ] || { sed 's/^/# /' "$out.log"; echo "FAIL - netns: mpirun on $np hosts wrote nothing"; exit 0; }
    echo "ok - netns: MPI calibration ran across $np emulated hosts"
}

# Fit: 2 hosts, 8 B to 8 MiB in x2 steps.  Held out: 3 hosts, 384 KiB to
# 6 MiB in x2 steps (3 x 2^k), none of them a size of the fit.
run_mpi "$tmp/fit.json" 8 8388608 2 $FIT_HOSTS
run_mpi "$tmp/meas.json" 393216 6291456 2 $MEAS_HOSTS
"$B/predict" "$min" "$tmp/fit.json" "$tmp/meas.json" 786432
if [ -n "$DT_NETNS_KEEP" ]; then cp "$tmp"/*.json "$DT_NETNS_KEEP"/; fi
exit 0
