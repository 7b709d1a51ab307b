#!/bin/sh
# hosts.sh - emulated hosts for the validation runs (docs/validation.md).
#
# Each host is a network namespace dvhN with one interface eth0 at
# 10.79.0.N/24 (MTU 9000), joined to the others by the bridge dvbr0 (10.79.0.254).  Both
# directions of each host's link are shaped with tbf to RATE Mbit/s (the
# namespace's eth0 for what the host sends, the bridge side of its veth for
# what it receives), as a full-duplex NIC of that rate.  The names differ from
# every other test's, so the two can run side by side.  Needs root and iproute2.
#
#   sh validate/hosts.sh up N RATE_MBIT    create hosts 1..N (removes old ones first)
#   sh validate/hosts.sh down              remove every host and the bridge
#   sh validate/hosts.sh check             exit 0 when namespaces can be made here
set -u
# VALIDATE_NS, VALIDATE_NET, VALIDATE_BR pick other names (tests/suite_validate.sh
# uses its own for each run, so a test and `make validate` never clash, nor
# two tests).  `down` removes the namespaces VALIDATE_NS followed by digits
# only: a prefix that ends in a letter keeps it off another run's.
BR=${VALIDATE_BR:-dvbr0}
NET=${VALIDATE_NET:-10.79.0}
PFX=${VALIDATE_NS:-dvh}

down() {
    for ns in $(ip netns list 2>/dev/null | awk '{print $1}' | grep "^$PFX[0-9]*$"); do
        ip netns del "$ns" 2>/dev/null
    done
    for v in $(ip -o link show 2>/dev/null | awk -F': ' '{print $2}' | sed 's/@.*//' | grep "^v$PFX[0-9]*$"); do
        ip link del "$v" 2>/dev/null
    done
    ip link del "$BR" 2>/dev/null
    return 0
}

up() {
    n=$1 rate=$2
    # a burst of at least 4 ms of traffic and 32 KiB: tbf needs rate/HZ
    burst=$(( rate * 1000 / 8 * 4 / 1000 ))
    [ "$burst" -lt 32768 ] && burst=32768
    MTU=9000
    down
    ip link add "$BR" type bridge || return 1
    # Jumbo frames, as cluster networks use: with 1500-byte frames the
    # kernel's per-packet work for the veth, bridge and tbf path took 74% of
    # this 2-core machine for two 280 Mbit/s streams (softirq), stealing the
    # cores the emulated hosts compute on; with 9000 bytes, 6%.
    ip link set "$BR" mtu "$MTU" || return 1
    ip addr add "$NET.254/24" dev "$BR" || return 1
    ip link set "$BR" up || return 1
    i=1
    while [ "$i" -le "$n" ]; do
        ns=$PFX$i
        ip netns add "$ns" || return 1
        ip link add "v$ns" type veth peer name eth0 netns "$ns" || return 1
        ip link set "v$ns" mtu "$MTU" || return 1
        ip -n "$ns" link set eth0 mtu "$MTU" || return 1
        ip link set "v$ns" master "$BR" || return 1
        ip link set "v$ns" up || return 1
        ip -n "$ns" addr add "$NET.$i/24" dev eth0 || return 1
        ip -n "$ns" link set eth0 up || return 1
        ip -n "$ns" link set lo up || return 1
        ip netns exec "$ns" tc qdisc add dev eth0 root tbf rate "${rate}mbit" burst "$burst" latency 200ms || return 1
        tc qdisc add dev "v$ns" root tbf rate "${rate}mbit" burst "$burst" latency 200ms || return 1
        i=$((i + 1))
    done
    return 0
}

check() {
    [ "$(id -u)" -eq 0 ] || return 1
    command -v ip >/dev/null 2>&1 && command -v tc >/dev/null 2>&1 || return 1
    # the probe: namespace PFXp, veth vPFXp (short: an interface name has
    # at most 15 bytes, and tests/suite_validate.sh's PFX holds a PID)
    ip netns add "${PFX}p" 2>/dev/null || return 1
    ok=0
    ip link add "v${PFX}p" type veth peer name eth0 netns "${PFX}p" 2>/dev/null &&
        ip netns exec "${PFX}p" tc qdisc add dev eth0 root tbf rate 100mbit burst 32kb latency 100ms 2>/dev/null || ok=1
    ip link del "v${PFX}p" 2>/dev/null
    ip netns del "${PFX}p" 2>/dev/null
    return $ok
}

case "${1:-}" in
up) [ $# -eq 3 ] || { echo "usage: hosts.sh up N RATE_MBIT" >&2; exit 2; }
    up "$2" "$3" || { echo "hosts.sh: cannot create the emulated hosts" >&2; down; exit 1; } ;;
down) down ;;
check) check ;;
*) echo "usage: hosts.sh up N RATE_MBIT | down | check" >&2; exit 2 ;;
esac
