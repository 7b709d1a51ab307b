#!/bin/sh
# Bottleneck labels (docs/output.md "How the bottleneck is found"): a scenario
# built for each label, tests/data/bound/NAME.yaml, must be named by it: the
# resource whose 2x speed-up shortens the step most, the line saying how much.
# And the case that showed the old rule wrong: with the workers' NICs the
# limit, 2 and 4 parameter servers give the same step, so the step is
# network-bound, not parameter-server-bound; with one server too few, it is.
BUILD=${BUILD:-build}
bin="$BUILD/dtplan"
out=${DT_TEST_OUT:-tests/out}/bound
mkdir -p "$out"

label() { # NAME -> "bottleneck|step|detail" of the first cluster
    "$bin" -q --json "tests/data/bound/$1.yaml" > "$out/$1.json" 2> "$out/$1.err" || return 1
    python3 -c '
import json, sys
c = json.load(open(sys.argv[1]))["clusters"][0]
print("%s|%.9g|%s" % (c["bottleneck"], c["step_time_s"]["mean"], c["bottleneck_detail"]))' "$out/$1.json"
}

expect() { # NAME LABEL WHAT-SAVES-MOST
    got=$(label "$1")
    b=${got%%|*}
    if [ "$b" = "$2" ] && printf '%s' "$got" | grep -q "; $3 would cut the step [0-9]*%"; then
        echo "ok - bound $1: $2, $3 saves most ($(printf '%s' "$got" | grep -o "$3 would cut the step [0-9]*%"))"
    else
        echo "FAIL - bound $1: expected $2 with $3 saving most, got: $got $(head -1 "$out/$1.err")"
    fi
}

expect compute compute "2x compute"
expect cpu cpu "2x vCPU speed"
expect input input "2x vCPU speed"
expect network network "2x NIC bandwidth"
expect link gpu_link "2x GPU-link bandwidth"
expect latency latency "half the message latency"
expect cycle cycle "half the background cycle"
expect ps-one-server parameter_server "2x parameter-server speed"
expect pcie pcie "2x PCIe bandwidth"
expect input-network input_network "2x NIC bandwidth"

four=$(label ps-four-servers)
two=$(label ps-two-servers)
s4=$(printf '%s' "$four" | cut -d'|' -f2)
s2=$(printf '%s' "$two" | cut -d'|' -f2)
if [ "${four%%|*}" = network ] && [ "${two%%|*}" = network ] &&
   python3 -c "import sys; a, b = float(sys.argv[1]), float(sys.argv[2]); sys.exit(0 if abs(a - b) <= 0.01 * a else 1)" "$s4" "$s2"; then
    echo "ok - bound: 4 and 2 dedicated servers give the same step ($s4 s, $s2 s): network-bound (the workers' NICs), not parameter-server-bound"
else
    echo "FAIL - bound: servers that do not matter: 4 servers $four; 2 servers $two"
fi
