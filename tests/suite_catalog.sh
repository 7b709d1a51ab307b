#!/bin/sh
# suite_catalog.sh - `dtplan catalog list|import` and SkyPilot's catalogs
# (catalog/skypilot.c, cli/catalog_cmd.c), and what a new user met first:
# the scenario on standard input, a model without FLOPs solved from a
# measured step on a CPU cluster.  Prints "ok - ..." / "FAIL - ..." lines for
# tests/run.sh.  Run from the repository root; BUILD defaults to build.
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
SKY=tests/data/skypilot
BAD=tests/data/skypilot-bad
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-catalog.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok - catalog: $1"; }
fail() { echo "FAIL - catalog: $1"; }
check() { # check DESCRIPTION COMMAND...: ok when COMMAND succeeds
    d=$1
    shift
    if "$@"; then ok "$d"; else fail "$d"; fi
}

if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi

# ---- list -------------------------------------------------------------------
"$DT" catalog list --catalog "$SKY" > "$tmp/list.txt" 2> "$tmp/err"
check "list of the SkyPilot sample (AWS and GCP) matches tests/golden/catalog-list-skypilot.txt" \
    cmp -s "$tmp/list.txt" tests/golden/catalog-list-skypilot.txt
check "list: one entry a type and region, at the lowest zone's spot price (p5.48xlarge in us-east-1: 23.1583 of its six zones)" \
    grep -q '^p5.48xlarge@us-east-1 .* 98.3200   23.1583 >20%      -$' "$tmp/list.txt"
check "list: a type's spot interruption band in its own region only (g5.xlarge: >20% in us-east-1, none in us-west-2)" \
    sh -c "grep -q '^g5.xlarge@us-east-1 .* >20%  ' '$tmp/list.txt' && grep -q '^g5.xlarge@us-west-2 .*0.3656 -  ' '$tmp/list.txt'"
check "list: GCP's H100-MEGA read as dtplan's H100, what is not known named" \
    grep -q '^H100-MEGAx8@us-central1 .* H100  .* vcpus, gpu link, network, nics$' "$tmp/list.txt"
"$DT" catalog list --catalog "$SKY" --gpu h100-mega --region us-central1 > "$tmp/g.txt"
check "list --gpu (an alias too) --region filters" \
    [ "$(grep -c '@us-central1' "$tmp/g.txt")" = 2 -a "$(tail -n 1 "$tmp/g.txt")" = "2 instance types" ]
"$DT" catalog list --catalog "$SKY" --cloud aws --gpu A10G --json > "$tmp/l.json"
check "list --json --cloud: the A10G types of AWS, each with its missing fields" \
    [ "$(grep -c '"instance":' "$tmp/l.json")" = 2 -a "$(grep -c '"missing":' "$tmp/l.json")" = 2 ]
"$DT" catalog list > "$tmp/own.txt"
check "list of dtplan's own catalog" grep -q '^p5.48xlarge  *aws  *us-east-1 ' "$tmp/own.txt"

# ---- storage: the checkpoint stores ------------------------------------------
"$DT" catalog storage > "$tmp/st.txt" 2> "$tmp/err"
check "storage lists the stores with their rates, the nodes' own disks said (local yes)" \
    sh -c "grep -q '^gcp-local-ssd-16  *gcp  *-  *-  *3.12 yes ' '$tmp/st.txt' &&
           grep -q '^fsx-lustre-p2-1000  *aws  *1000  *-  *- no ' '$tmp/st.txt' &&
           tail -1 '$tmp/st.txt' | grep -q '^[0-9][0-9]* storage types$'"
"$DT" catalog storage --cloud azure --json > "$tmp/st.json"
check "storage --cloud --json: Azure's four Managed Lustre tiers, none local" \
    [ "$(grep -c '"storage":	"amlfs-' "$tmp/st.json")" = 4 -a "$(grep -c '"local":	true' "$tmp/st.json")" = 0 ]
"$DT" catalog storage --gpu H100 > /dev/null 2> "$tmp/err"
rc=$?
check "storage refuses list's filters it has no use for" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = "dtplan catalog storage: --gpu: unknown flag, expected one of --cloud, --catalog, --json, -o" ]

# ---- import: the round trip ---------------------------------------------------
"$DT" catalog import "$SKY/aws/vms.csv" "$SKY/gcp/vms.csv" -o "$tmp/cat" 2> "$tmp/err"
rc=$?
check "import writes a dtplan catalog (instances.csv, gpus.csv, models.csv)" \
    [ $rc -eq 0 -a -s "$tmp/cat/instances.csv" -a -s "$tmp/cat/gpus.csv" -a -s "$tmp/cat/models.csv" ]
"$DT" catalog list --catalog "$tmp/cat" > "$tmp/list2.txt"
check "the imported catalog lists as the SkyPilot files do" cmp -s "$tmp/list.txt" "$tmp/list2.txt"
check "import leaves no temporary behind (instances, gpus, models, storage)" [ "$(ls "$tmp/cat" | wc -l | tr -d ' ')" = 4 ]
check "an import of accelerators dtplan knows says nothing of unknown ones" \
    sh -c "! grep -q 'kept without a GPU' '$tmp/err'"
"$DT" catalog import tests/data/skypilot-accel -o "$tmp/acc" 2> "$tmp/acc.err"
check "an import counts what it keeps without a GPU, by kind, and says why" \
    grep -q '5 of them kept without a GPU, their accelerator not modelled: 1 TPU (tpu-v5litepod-8): TPUs are not modelled (dtplan models GPUs); 1 Trainium (Trainium): AWS Trainium is not modelled; 1 Inferentia (Inferentia2): .*; 1 Gaudi (Gaudi HL-205): .*; 1 with a GPU gpus.csv has no row for (K80): add one' "$tmp/acc.err"
cat > "$tmp/p5.yaml" <<'YAML'
workload: {model: resnet50, batch_per_gpu: 128, precision: fp16}
input: {cpu_s_per_sample: 0.006}
clusters:
  - {name: east, groups: [{role: train, instance: p5.48xlarge, count: 2}]}
  - {name: west, groups: [{role: train, instance: p5.48xlarge@us-west-2, count: 2}]}
YAML
"$DT" -q --catalog "$SKY" "$tmp/p5.yaml" > "$tmp/p5.txt" 2> "$tmp/err"
rc=$?
check "a scenario over SkyPilot's catalog: a bare type is its cheapest region, TYPE@REGION a given one" \
    [ $rc -eq 0 -a "$(grep -c 'p5.48xlarge@us-east-1\|p5.48xlarge@us-west-2' "$tmp/p5.txt")" -ge 2 ]
check "what dtplan knows of p5 (3,200 Gbit/s EFA) kept under SkyPilot's prices: NCCL over the network" \
    grep -q '^Collectives: east: .*NCCL' "$tmp/p5.txt"

# ---- bad SkyPilot files: one line naming file, line, column, what ------------
bad() { # bad NAME EXPECTED-LINE
    "$DT" catalog list --catalog "$BAD/$1.csv" > "$tmp/out" 2> "$tmp/err"
    rc=$?
    check "bad SkyPilot file $1: exit 2, one line: $2" \
        [ $rc -eq 2 -a ! -s "$tmp/out" -a "$(cat "$tmp/err")" = "$2" ]
}
bad missing_column "$BAD/missing_column.csv:1:1: header: expected SkyPilot's vms.csv columns InstanceType, AcceleratorName, AcceleratorCount, vCPUs, MemoryGiB, GpuInfo, Price, SpotPrice, Region, AvailabilityZone; missing \"SpotPrice\""
bad negative_price "$BAD/negative_price.csv:2:171: Price: expected a price >= 0 in USD an hour, or empty, found \"-98.32\""
bad huge_price "$BAD/huge_price.csv:2:171: Price: expected a price from 0 to 1e6 USD an hour, or empty, found \"1e308\""
bad duplicate_row "$BAD/duplicate_row.csv:4:1: InstanceType: expected one row for p5.48xlarge@us-east-1 zone \"use1-az1\", as at line 2, found \"p5.48xlarge\""
"$DT" catalog import "$BAD/duplicate_row.csv" -o "$tmp/badcat" > /dev/null 2>&1
check "a bad file imports nothing and creates no directory" [ $? -eq 2 -a ! -e "$tmp/badcat" ]
# a write that fails once -o DIR is made (files limited to 0 bytes): the
# directory it made is gone, one it did not make is kept (its error line
# cannot be kept: the limit holds for the file stderr goes to as well)
sh -c 'trap "" XFSZ; ulimit -f 0; exec "$@"' _ "$DT" catalog import "$SKY" -o "$tmp/failcat" \
    > /dev/null 2> "$tmp/err"
check "a failed import write exits 1 and leaves no -o directory behind" \
    [ $? -eq 1 -a ! -e "$tmp/failcat" ]
mkdir "$tmp/keepcat"
sh -c 'trap "" XFSZ; ulimit -f 0; exec "$@"' _ "$DT" catalog import "$SKY" -o "$tmp/keepcat" \
    > /dev/null 2> "$tmp/err"
check "a failed import into an existing directory keeps it, empty" \
    [ $? -eq 1 -a -d "$tmp/keepcat" -a -z "$(ls -A "$tmp/keepcat")" ]
"$DT" catalog list --catalog "$BAD/unknown_accelerator.csv" > "$tmp/u.txt"
check "an accelerator dtplan does not know is listed as unknown, never as zero" \
    grep -q '^trn1.32xlarge@us-east-1 .* Trainium (unknown)  *16 .*gpu (accelerator unknown to dtplan)' "$tmp/u.txt"
sed 's/p5.48xlarge/trn1.32xlarge/; /west/d' "$tmp/p5.yaml" > "$tmp/trn.yaml"
"$DT" --catalog "$BAD/unknown_accelerator.csv" "$tmp/trn.yaml" > /dev/null 2> "$tmp/err"
check "a scenario on it: exit 2 at the instance field" \
    [ $? -eq 2 -a "$(grep -c "instance: instance type trn1.32xlarge@us-east-1: its accelerator is unknown to dtplan" "$tmp/err")" = 1 ]
"$DT" catalog frobnicate > /dev/null 2> "$tmp/err"
check "catalog with an unknown subcommand: exit 2, one line" [ $? -eq 2 -a "$(wc -l < "$tmp/err" | tr -d ' ')" = 1 ]

# ---- the snags a new user hit ---------------------------------------------------
"$DT" -q - < tests/data/cli/tiny.yaml > "$tmp/stdin.txt" 2> "$tmp/err"
"$DT" -q tests/data/cli/tiny.yaml > "$tmp/file.txt" 2>&1
check "dtplan - reads the scenario from standard input, as from its file" \
    [ -s "$tmp/stdin.txt" -a "$(grep -v '^Scenario:' "$tmp/stdin.txt")" = "$(grep -v '^Scenario:' "$tmp/file.txt")" ]
printf 'workload: {model: resnet50}\n' | "$DT" - > /dev/null 2> "$tmp/err"
check "dtplan - names stdin in its error line" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = "stdin:1:1: workload.batch_per_gpu: missing required field" ]
cat > "$tmp/cpu.yaml" <<'YAML'
catalog:
  models:
    - {name: no-flops, family: mlp, params: 1000000, source: "a model known by its parameters only"}
workload:
  model: no-flops
  batch_per_gpu: 32
  measured_step: {cluster: cpu, step_s: 0.5, solve_for: compute}
input: {cpu_s_per_sample: 0.001}
clusters:
  - {name: cpu, groups: [{role: train, instance: c5.18xlarge, count: 1}]}
  - {name: cpu2, groups: [{role: train, instance: c5.18xlarge, count: 2}]}
YAML
"$DT" -q "$tmp/cpu.yaml" > "$tmp/cpu.txt" 2> "$tmp/err"
check "a model without FLOPs on CPU nodes: solve_for compute solves from the measured step" \
    [ $? -eq 0 -a "$(grep -c '^Solved from measured step: compute_s_per_step = ' "$tmp/cpu.txt")" = 1 ]
sed '/measured_step/d' "$tmp/cpu.yaml" > "$tmp/cpu0.yaml"
"$DT" -q "$tmp/cpu0.yaml" > /dev/null 2> "$tmp/err"
check "and without a measured step the error names what works (fwd_gflops, measured_step)" \
    grep -q "give the model's fwd_gflops (catalog.models), or workload.measured_step on this cluster with solve_for: compute" "$tmp/err"
cat > "$tmp/inline.yaml" <<'YAML'
catalog:
  instances:
    - {name: one-vcpu, vcpus: 1, network_gbps: 10, price_usd_h: 0.05, source: "a 1-vCPU node"}
  models:
    - {name: tiny-mlp, family: mlp, params: 100000, fwd_gflops: 0.001, source: "a small model"}
workload: {model: tiny-mlp, batch_per_gpu: 64}
input: {cpu_s_per_sample: 0.001, loader_workers: 0}
clusters:
  - {name: one, groups: [{role: train, instance: one-vcpu, count: 1}]}
simulation: {jitter_cv: 0}
YAML
"$DT" -q --json "$tmp/inline.yaml" > "$tmp/inline.json" 2> "$tmp/err"
rc=$?
stall=$(grep -m1 '"data_stall":' "$tmp/inline.json" | tr -dc '0-9.')
comp=$(grep -m1 '"compute":' "$tmp/inline.json" | tr -dc '0-9.')
mean=$(grep -m1 '"mean":' "$tmp/inline.json" | tr -dc '0-9.')
check "loader_workers 0 on a 1-vCPU node: the process loads each batch (64 x 1 ms) then computes it, one after the other" \
    awk -v r=$rc -v s="$stall" -v c="$comp" -v m="$mean" \
    'BEGIN { exit !(r == 0 && s > 0.0639 && s < 0.0641 && m >= s + c && m < (s + c) * 1.02) }'
exit 0
