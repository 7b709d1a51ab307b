#!/bin/sh
# suite_cli.sh - the dtplan command line: flags, exit statuses, error lines,
# atomic -o and deterministic output.  Prints "ok - ..." / "FAIL - ..." lines
# for tests/run.sh.  Run from the repository root; BUILD defaults to build.
#
# The scenario is the first that runs of tests/data/cli/tiny.yaml,
# tests/data/scenario_ok/*.yaml and scenarios/seeds/*.yaml.
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-cli.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

ok() { echo "ok - cli: $1"; }
fail() { echo "FAIL - cli: $1"; }
check() { # check DESCRIPTION COMMAND...: ok when COMMAND succeeds
    d=$1
    shift
    if "$@"; then ok "$d"; else fail "$d"; fi
}
lines() { wc -l < "$1" | tr -d ' '; }

# JSON validity: perl's core JSON::PP (perl comes with build-essential), else
# python3, else jq, else a rough look at the braces.
is_json() {
    if perl -MJSON::PP -e 1 2>/dev/null; then
        perl -MJSON::PP -e 'local $/; open my $f, "<", $ARGV[0] or exit 1; decode_json(<$f>)' "$1" 2>/dev/null
    elif command -v python3 >/dev/null 2>&1; then
        python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$1" 2>/dev/null
    elif command -v jq >/dev/null 2>&1; then
        jq -e . "$1" >/dev/null 2>&1
    else
        head -c 1 "$1" | grep -q '{' && tail -n 1 "$1" | grep -q '^}$'
    fi
}

if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi

# ---- flags ------------------------------------------------------------------
"$DT" --help > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--help exits 0" [ $rc -eq 0 ]
check "--help mentions --json on stdout" grep -q -- '--json' "$tmp/out"
check "--help prints nothing on stderr" [ ! -s "$tmp/err" ]

"$DT" --version > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--version exits 0 and prints \"dtplan 0.1.0\"" \
    [ $rc -eq 0 -a "$(cat "$tmp/out")" = "dtplan 0.1.0" ]

"$DT" plan --version > "$tmp/out" 2> "$tmp/err"
check "plan --version exits 0 and prints \"dtplan 0.1.0\"" \
    [ $? -eq 0 -a "$(cat "$tmp/out")" = "dtplan 0.1.0" -a ! -s "$tmp/err" ]
check "the manual page's SEE ALSO lists every document of docs/" \
    sh -c 'for d in docs/*.md; do grep -q "^.IR $d" docs/dtplan.1 || exit 1; done'

"$DT" --no-such-flag x.yaml > "$tmp/out" 2> "$tmp/err"
rc=$?
check "an unknown flag exits 2" [ $rc -eq 2 ]
check "an unknown flag gives one line on stderr naming it" \
    [ "$(lines "$tmp/err")" = 1 -a ! -s "$tmp/out" ]
check "the unknown-flag line names the flag" grep -q -- '--no-such-flag' "$tmp/err"

"$DT" --seed x x.yaml > "$tmp/out" 2> "$tmp/err"
rc=$?
check "a bad --seed exits 2 with the exact error line" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = 'dtplan: --seed: expected a non-negative integer, found "x"' ]

"$DT" --steps=0 x.yaml > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--steps=0 exits 2 with one line" [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 ]

"$DT" --seed > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--seed without a value exits 2 with one line" [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 ]

"$DT" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "no scenario exits 2" [ $rc -eq 2 -a ! -s "$tmp/out" ]
check "no scenario prints one usage line on stderr" \
    [ "$(lines "$tmp/err")" = 1 -a "$(cut -c1-13 "$tmp/err")" = "usage: dtplan" ]

"$DT" a.yaml b.yaml > "$tmp/out" 2> "$tmp/err"
rc=$?
check "two scenarios exit 2 with one line" [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 ]

missing="$tmp/no-such-scenario.yaml"
"$DT" "$missing" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "a missing scenario file exits 2" [ $rc -eq 2 ]
check "a missing scenario file gives one line on stderr" [ "$(lines "$tmp/err")" = 1 -a ! -s "$tmp/out" ]
check "the error line names the file" grep -qF "$missing" "$tmp/err"

# ---- a scenario that runs ----------------------------------------------------
sc=""
for f in tests/data/cli/tiny.yaml tests/data/scenario_ok/*.yaml scenarios/seeds/*.yaml; do
    [ -f "$f" ] || continue
    if "$DT" -q --json "$f" > /dev/null 2> "$tmp/err"; then
        sc=$f
        break
    fi
    echo "# note: $f does not run: $(head -n 1 "$tmp/err")"
done
if [ -z "$sc" ]; then
    fail "no scenario runs (tests/data/cli/tiny.yaml, tests/data/scenario_ok, scenarios/seeds)"
    exit 0
fi
echo "# scenario: $sc"

"$DT" --seed 42 "$sc" > "$tmp/table" 2> "$tmp/err"
rc=$?
check "a good scenario exits 0" [ $rc -eq 0 ]
check "the seed note is the only stderr line" [ "$(cat "$tmp/err")" = "dtplan: seed 42" ]
check "the table has a Recommendation line" grep -q '^Recommendation: ' "$tmp/table"

"$DT" -q --seed 42 "$sc" > /dev/null 2> "$tmp/err"
check "-q silences the seed note" [ ! -s "$tmp/err" ]

"$DT" -q run "$sc" > "$tmp/run" 2>&1
check "\"dtplan run SCENARIO\" is \"dtplan SCENARIO\"" \
    sh -c '"$1" -q "$2" | cmp -s - "$3"' sh "$DT" "$sc" "$tmp/run"

# ---- -o ----------------------------------------------------------------------
mkdir "$tmp/o"
"$DT" -q --json --seed 42 -o "$tmp/o/r.json" "$sc" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--json -o exits 0 and prints nothing" [ $rc -eq 0 -a ! -s "$tmp/out" -a ! -s "$tmp/err" ]
check "--json -o writes a file that parses as JSON" is_json "$tmp/o/r.json"
check "the JSON has the seed used" grep -q '"seed":[[:space:]]*42,' "$tmp/o/r.json"
check "-o leaves no temporary file" [ "$(ls "$tmp/o")" = "r.json" ]
"$DT" -q --json --seed 42 "$sc" > "$tmp/stdout.json"
check "-o writes what stdout would show" cmp -s "$tmp/stdout.json" "$tmp/o/r.json"

printf 'clusters: [\n' > "$tmp/bad.yaml"
"$DT" -q -o "$tmp/o/new.json" "$tmp/bad.yaml" > /dev/null 2> "$tmp/err"
rc=$?
check "a bad scenario with -o exits 2" [ $rc -eq 2 ]
check "a failing run does not create the -o file" [ ! -e "$tmp/o/new.json" ]
echo "previous contents" > "$tmp/o/keep.json"
"$DT" -q -o "$tmp/o/keep.json" "$tmp/bad.yaml" > /dev/null 2>&1
check "a failing run does not truncate an existing -o file" \
    [ "$(cat "$tmp/o/keep.json")" = "previous contents" ]
check "a failing run leaves no temporary file" \
    [ "$(ls "$tmp/o" | tr '\n' ' ')" = "keep.json r.json " ]
"$DT" -q --json -o "$tmp/o/keep.json" "$sc" > /dev/null 2>&1
check "a good run replaces an existing -o file" is_json "$tmp/o/keep.json"

"$DT" -q -o "$tmp/no-such-dir/r.json" "$sc" > /dev/null 2> "$tmp/err"
rc=$?
check "-o into a missing directory exits 2 with one line" [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 ]

# The outputs of a run are all or nothing: a --report or --trace path that
# cannot be created leaves no -o file and prints no table.
for extra in --report --trace --save-json; do
    "$DT" -q -o "$tmp/o/both.json" $extra "$tmp/no-such-dir/x" "$sc" > /dev/null 2> "$tmp/err"
    rc=$?
    check "$extra into a missing directory exits 2 with one line" [ $rc -eq 2 -a "$(lines "$tmp/err")" = 1 ]
    check "$extra into a missing directory leaves no -o file" [ ! -e "$tmp/o/both.json" ]
    "$DT" -q $extra "$tmp/no-such-dir/x" "$sc" > "$tmp/out" 2> /dev/null
    check "$extra into a missing directory prints no table" [ ! -s "$tmp/out" ]
done
"$DT" -q -o "$tmp/o/both.json" --report "$tmp/o/both.html" --trace "$tmp/o/both.trace.json" "$sc" \
    > /dev/null 2>&1
check "-o, --report and --trace together write all three" \
    [ -s "$tmp/o/both.json" -a -s "$tmp/o/both.html" -a -s "$tmp/o/both.trace.json" ]
# --save-json: the table on standard output, and the JSON --json prints, in
# one run (dtplan SCENARIO and dtplan plan).
"$DT" -q --save-json "$tmp/o/saved.json" "$sc" > "$tmp/o/saved.txt" 2> /dev/null
"$DT" -q --json "$sc" > "$tmp/o/json.json" 2> /dev/null
check "--save-json writes what --json prints, beside the table" \
    sh -c 'cmp -s "$1/saved.json" "$1/json.json" && grep -q "^Recommendation:" "$1/saved.txt"' _ "$tmp/o"
"$DT" plan -q --save-json "$tmp/o/psaved.json" tests/data/plan/enumerate-small.yaml > "$tmp/o/psaved.txt" 2> /dev/null
"$DT" plan -q --json tests/data/plan/enumerate-small.yaml > "$tmp/o/pjson.json" 2> /dev/null
check "plan --save-json writes what plan --json prints, beside the table" \
    sh -c 'cmp -s "$1/psaved.json" "$1/pjson.json" && grep -q "^Top " "$1/psaved.txt"' _ "$tmp/o"

# A cluster that loads but cannot be simulated: exit 1, one line naming it once.
# A catalog whose A10G row has lost its peaks (as it had before AWS's figures
# were added): the cluster cannot be simulated, one line names it once.
mkdir -p "$tmp/nopeak"
cp catalog/*.csv "$tmp/nopeak/"
sed -i 's/^A10G,35,35,70,70,/A10G,,,,,/' "$tmp/nopeak/gpus.csv"
"$DT" -q --catalog "$tmp/nopeak" tests/data/cli/unknown_peak.yaml > /dev/null 2> "$tmp/err"
rc=$?
check "a GPU without a known peak exits 1 with one line naming the cluster once" \
    [ $rc -eq 1 -a "$(cat "$tmp/err")" = "dtplan: cluster one-g5: g5.xlarge: the catalog gives A10G no peak FLOP/s for fp32; give workload.measured_compute or another precision" ]

# A GPU's 4-bit share out of range (gpus.csv fp4_eff, its last column, a
# fraction in (0, 1]): one line naming the file, line, column and field, exit 2.
mkdir -p "$tmp/fp4eff"
cp catalog/*.csv "$tmp/fp4eff/"
awk -F, -v OFS=, '$1 == "GB200" { $NF = "1.5" } { print }' catalog/gpus.csv > "$tmp/fp4eff/gpus.csv"
"$DT" -q --catalog "$tmp/fp4eff" scenarios/compare-b200-gb200.yaml > /dev/null 2> "$tmp/err"
rc=$?
check "gpus.csv fp4_eff past 1 exits 2 with one line naming its row and the range" \
    sh -c '[ $1 -eq 2 ] && [ $(wc -l < "$2") -eq 1 ] &&
           grep -q "gpus.csv:[0-9]*:[0-9]*: fp4_eff: expected a fraction in (0, 1\], found \"1.5\"" "$2"' _ $rc "$tmp/err"

# ---- determinism ---------------------------------------------------------------
"$DT" -q --seed 5 "$sc" > "$tmp/a.txt"
"$DT" -q --seed 5 "$sc" > "$tmp/b.txt"
check "the same scenario and seed give a byte-identical table" cmp -s "$tmp/a.txt" "$tmp/b.txt"
"$DT" -q --json --seed 5 "$sc" > "$tmp/a.json"
"$DT" -q --json --seed 5 "$sc" > "$tmp/b.json"
check "the same scenario and seed give byte-identical JSON" cmp -s "$tmp/a.json" "$tmp/b.json"

# ---- a precision the GPU lacks is named -------------------------------------------
"$DT" -q tests/data/cli/bf16_v100.yaml > "$tmp/p.txt"
"$DT" -q --json tests/data/cli/bf16_v100.yaml > "$tmp/p.json"
check "bf16 on a V100: the table says it runs fp16, once" \
    [ "$(grep -c '^Precision: V100 has no bf16: runs fp16$' "$tmp/p.txt")" = 1 ]
check "and the JSON has the note on the V100 cluster and null on the A100 one" \
    [ "$(grep -c '"precision_note":.*"V100 has no bf16: runs fp16"' "$tmp/p.json")" = 1 -a "$(grep -c '"precision_note":.*null' "$tmp/p.json")" = 1 ]

# a search in bf16 over V100 and T4 types: searched at fp16, and said so
"$DT" plan -q tests/data/plan/bf16-fallback.yaml > "$tmp/p.txt"
check "plan: bf16 on V100 and T4 types is searched as fp16, and the table says so" \
    [ "$(grep -c '^Precision: V100 has no bf16: runs fp16$' "$tmp/p.txt")" = 1 \
      -a "$(grep -c '^Precision: T4 has no bf16: runs fp16$' "$tmp/p.txt")" = 1 \
      -a "$(grep -c '^Searched: 10 candidates over 5 instance types' "$tmp/p.txt")" = 1 ]
# a GPU with no peak at all cannot be costed: its types are skipped and counted
sed 's/instances: \[g4dn, c5\]/instances: [g5, g4dn]/' tests/data/plan/cpu-bound-vision.yaml > "$tmp/g5.yaml"
"$DT" plan -q --catalog "$tmp/nopeak" "$tmp/g5.yaml" > "$tmp/p.txt"
check "plan: the A10G types, left without peaks, are skipped and counted" \
    [ "$(grep -c "^Skipped: $(grep -c '^aws,g5\.' catalog/instances.csv) GPU instance types whose fp16 peak FLOP/s is unknown" "$tmp/p.txt")" = 1 ]

# ---- measured_compute.recompute: what the measured pass recomputed ----------------------
# A pass measured without recomputation (0.5 s at batch 4 on one A100) costs a forward more
# under workload.recompute: full; one measured with it costs that much less without it.
mc() { # mc WORKLOAD_RECOMPUTE MEASURED_RECOMPUTE: the step's compute, seconds
    cat > "$tmp/mc.yaml" <<YAML
workload:
  model: gpt3-1.3b
  batch_per_gpu: 4
  precision: bf16
  recompute: $1
  measured_compute: {gpu: A100, step_s: 0.5, batch: 4, recompute: $2}
input: {cpu_s_per_sample: 0}
clusters:
  - {name: one, groups: [{role: train, instance: p4d.24xlarge, count: 1}]}
simulation: {jitter_cv: 0}
YAML
    "$DT" -q --json "$tmp/mc.yaml" 2> "$tmp/err" | grep -m1 '"compute":' | tr -dc '0-9.'
}
c_nn=$(mc none none); c_fn=$(mc full none); c_ff=$(mc full full); c_nf=$(mc none full)
check "measured_compute.recompute: full recompute costs a forward more than the pass measured without it ($c_nn -> $c_fn s), nothing more when measured with it ($c_ff s), a forward less to a run without it ($c_nf s)" \
    awk -v nn="$c_nn" -v fn="$c_fn" -v ff="$c_ff" -v nf="$c_nf" \
    'BEGIN { exit !(nn > 0.499 && nn < 0.501 && ff > 0.499 && ff < 0.501 && fn > 1.25 * nn && fn < 1.45 * nn && nf < nn / 1.25 && nf > nn / 1.45) }'
mc none auto > /dev/null
check "measured_compute.recompute: auto is refused at its field" \
    grep -q 'workload.measured_compute.recompute: expected one of none, selective, full, selective_op (what the measured run recomputed), found "auto"' "$tmp/err"

# ---- dtplan compute ---------------------------------------------------------------
"$DT" compute --model resnet50 --batch 64 --precision bf16 --gpu V100,A100 > "$tmp/c.txt" 2> "$tmp/err"
check "compute: one row per GPU asked for, V100's bf16 fallback named" \
    [ $? -eq 0 -a "$(grep -c '^V100 .*V100 has no bf16: runs fp16' "$tmp/c.txt")" = 1 \
      -a "$(grep -c '^A100 ' "$tmp/c.txt")" = 1 -a ! -s "$tmp/err" ]
"$DT" compute --model gpt3-1.3b --batch 4 --precision auto --json > "$tmp/c.json"
check "compute --json is JSON with one object per catalog GPU" \
    [ "$(is_json "$tmp/c.json" && echo json)" = json \
      -a "$(grep -c '"gpu":' "$tmp/c.json")" = "$(($(wc -l < catalog/gpus.csv) - 1))" ]
"$DT" compute --model resnet50 --gpu A100,X100 > "$tmp/c.txt" 2> "$tmp/err"
rc=$?
check "compute: an unknown GPU exits 2 with one line, nothing on standard output" \
    [ $rc -eq 2 -a "$(cat "$tmp/err")" = 'dtplan compute: --gpu: unknown GPU "X100"' -a ! -s "$tmp/c.txt" ]
"$DT" compute --model resnet50 --seq 128 > /dev/null 2> "$tmp/err"
check "compute: --seq on a model without a shape is refused" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = "dtplan compute: --seq: expected a model given by its shape, found resnet50" ]
"$DT" compute --model resnet50 --precision fp64 > /dev/null 2> "$tmp/err"
check "compute: a bad precision names the set" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan compute: --precision: expected one of fp32, tf32, fp16, bf16, fp8, fp32_strict, auto, found "fp64"' ]
"$DT" compute --model gpt3-1.3b --fp8-recipe blockwise > /dev/null 2> "$tmp/err"
check "compute: a bad --fp8-recipe names the set" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan compute: --fp8-recipe: expected one of delayed, current, mxfp8, nvfp4, found "blockwise"' ]
# The linear layers' format names the block-scaled recipe where the GPU runs it.
"$DT" compute --model llama3-8b --gpu B200,H100 --precision fp8 --fp8-recipe nvfp4 --batch 1 > "$tmp/n.txt"
"$DT" compute --model llama3-8b --gpu B200,H100 --precision fp8 --fp8-recipe nvfp4 --batch 1 --json > "$tmp/n.json"
check "compute: nvfp4 named where it runs (B200), fp8 where it falls back (H100)" \
    sh -c 'grep -q "^B200 *bf16/nvfp4 " "$1" && grep -q "^H100 *bf16/fp8 " "$1" &&
           grep -q "\"linear_format\":[[:space:]]*\"nvfp4\"" "$2" && grep -q "\"linear_format\":[[:space:]]*\"fp8\"" "$2"' _ "$tmp/n.txt" "$tmp/n.json"
"$DT" compute --model gpt-oss-120b --expert-mlp unfused > /dev/null 2> "$tmp/err"
check "compute: a bad --expert-mlp names the set" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan compute: --expert-mlp: expected one of fused, grouped, sequential, found "unfused"' ]
"$DT" compute --model llama3-8b --expert-mlp grouped > /dev/null 2> "$tmp/err"
check "compute: --expert-mlp grouped on a model without experts is refused" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan compute: --expert-mlp: expected fused (the default) for llama3-8b, a model without experts, found grouped' ]
"$DT" compute --model gpt-oss-120b --gpu GB200 --precision bf16 --batch 1 --seq 4096 --json > "$tmp/f.json"
"$DT" compute --model gpt-oss-120b --gpu GB200 --precision bf16 --batch 1 --seq 4096 --expert-mlp grouped --json > "$tmp/g.json"
check "compute --expert-mlp grouped: GPT-OSS's unfused clamp and biases make its pass slower" \
    perl -MJSON::PP -e 'local $/; open my $a, "<", $ARGV[0]; open my $b, "<", $ARGV[1];
        my ($f, $g) = (decode_json(<$a>)->[0], decode_json(<$b>)->[0]);
        exit !($g->{samples_per_s} < $f->{samples_per_s})' "$tmp/f.json" "$tmp/g.json"
"$DT" compute --model qwen3-30b-a3b --gpu H100 --precision bf16 --batch 1 --seq 4096 --expert-mlp grouped --json > "$tmp/g.json"
"$DT" compute --model qwen3-30b-a3b --gpu H100 --precision bf16 --batch 1 --seq 4096 --expert-mlp sequential --json > "$tmp/s.json"
check "compute --expert-mlp sequential: 128 experts' products in turn on one stream are slower than over the grouped GEMM's 4" \
    perl -MJSON::PP -e 'local $/; open my $a, "<", $ARGV[0]; open my $b, "<", $ARGV[1];
        my ($g, $s) = (decode_json(<$a>)->[0], decode_json(<$b>)->[0]);
        exit !($s->{samples_per_s} < 0.95 * $g->{samples_per_s})' "$tmp/g.json" "$tmp/s.json"
"$DT" compute --model qwen3-30b-a3b --ep 3 > /dev/null 2> "$tmp/err"
check "compute: an --ep that does not divide the experts is refused" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = "dtplan compute: --ep: expected a divisor of qwen3-30b-a3b's 128 experts, found 3" ]
"$DT" compute --model llama3-8b --ep 2 > /dev/null 2> "$tmp/err"
check "compute: --ep on a model without experts is refused" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan compute: --ep: expected 1 for llama3-8b, a model without experts, found 2' ]
"$DT" compute --model qwen3-30b-a3b --gpu B200 --precision bf16 --batch 1 --seq 4096 --json > "$tmp/e1.json"
"$DT" compute --model qwen3-30b-a3b --gpu B200 --precision bf16 --batch 1 --seq 4096 --ep 8 --json > "$tmp/e8.json"
check "compute --ep 8: 16 local experts of 2,048 rows run faster than 128 of 256 (the same FLOPs)" \
    perl -MJSON::PP -e 'local $/; open my $a, "<", $ARGV[0]; open my $b, "<", $ARGV[1];
        my ($one, $ep) = (decode_json(<$a>)->[0], decode_json(<$b>)->[0]);
        exit !($ep->{samples_per_s} > 1.2 * $one->{samples_per_s})' "$tmp/e1.json" "$tmp/e8.json"
"$DT" -q validate/published/llm_runs/dgxc2411-grok1-314b-h100-bf16-512.yaml > "$tmp/etp4.txt" 2>&1
"$DT" -q validate/published/llm_runs/mb2604-qwen3-235b-h100-fp8.yaml > "$tmp/etp1.txt" 2>&1
check "report: the Experts line names etp's gathers where etp > 1, not at etp 1" \
    sh -c 'grep -q "^Experts: run: the MoE layers'"'"' all-to-alls (expert.*(ep comm); their gathers over etp 4 wait " "$1" &&
           grep "^Experts: run: the MoE layers'"'"' all-to-alls (expert" "$2" | grep -qv "gathers"' _ "$tmp/etp4.txt" "$tmp/etp1.txt"
"$DT" -q --json validate/published/memory/megatron-ci-moe-ep8-allgather.yaml > "$tmp/ag.json" 2>&1
"$DT" -q validate/published/memory/megatron-ci-moe-ep8-allgather.yaml > "$tmp/ag.txt" 2>&1
check "report: the allgather dispatcher's gathers and reduce-scatters, by name in the text and the JSON" \
    sh -c 'grep -q "^Experts: c: the MoE layers'"'"' token gathers and reduce-scatters (expert parallelism by the allgather dispatcher, inside a node, over NVLink) wait " "$1" &&
           grep -q "\"ep_dispatch\":[[:space:]]*\"allgather\"" "$2"' _ "$tmp/ag.txt" "$tmp/ag.json"
"$DT" compute --model gpt3-1.3b --optimizer python > /dev/null 2> "$tmp/err"
check "compute: a bad --optimizer names the set" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan compute: --optimizer: expected one of fused, foreach, per_tensor, found "python"' ]
"$DT" compute --model bert-large-squad --gpu H100 --precision tf32 --batch 8 --json > "$tmp/p.json"
"$DT" compute --model bert-large-squad --gpu H100 --precision tf32 --batch 8 --optimizer per_tensor --json > "$tmp/q.json"
check "compute --optimizer per_tensor: a step a pass, slower than the pass alone, its optimizer_s shown" \
    perl -MJSON::PP -e 'local $/; open my $a, "<", $ARGV[0]; open my $b, "<", $ARGV[1];
        my ($p, $q) = (decode_json(<$a>)->[0], decode_json(<$b>)->[0]);
        exit !($q->{optimizer_s} > 0.1 && $q->{samples_per_s} < $p->{samples_per_s} && !exists $p->{optimizer_s})' \
        "$tmp/p.json" "$tmp/q.json"
"$DT" compute --model bert-large-squad --attention unfused --batch 8 --json > "$tmp/a.json"
"$DT" compute --model bert-large-squad --attention unfused --batch 8 --json > "$tmp/b.json"
check "compute: byte-identical output for the same input" cmp -s "$tmp/a.json" "$tmp/b.json"
# a pass measured on one GPU: that GPU's row is the measurement, the others carried
"$DT" compute --model resnet50 --batch 256 --precision fp16 --gpu A100-80GB,H100 \
    --measured A100-80GB:0.1036 > "$tmp/c.txt"
check "compute --measured: the measured GPU's row is the measurement (103.60 ms)" \
    [ "$(grep -c '^A100-80GB .* 103.60 ' "$tmp/c.txt")" = 1 -a "$(grep -c 'carried from 0.1036 s at batch 256 on A100-80GB' "$tmp/c.txt")" = 1 ]
"$DT" compute --model resnet50 --measured A100:0 > /dev/null 2> "$tmp/err"
check "compute --measured: a bad measurement is one line, exit 2" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan compute: --measured: expected GPU:SECONDS[:BATCH] with a GPU of the catalog, SECONDS > 0 and BATCH from 1 to 10000000, found "A100:0"' ]
"$DT" compute --help > "$tmp/c.txt"
check "compute --help prints the usage, exit 0" [ $? -eq 0 -a "$(grep -c '^usage: dtplan compute' "$tmp/c.txt")" = 1 ]

# ---- cuDNN's attention by release on Blackwell (workload.attention cudnn_9.10, cudnn_9.13) ----
for a in cudnn cudnn_9.13 cudnn_9.10; do
    "$DT" compute --model llama3-8b --gpu B200,H100 --precision bf16 --batch 1 --seq 8192 --attention $a \
        --json > "$tmp/att-$a.json" 2> "$tmp/err"
done
check "compute --attention cudnn_9.10 and cudnn_9.13: a B200 pass longer, release by release; an H100 the same" \
    perl -MJSON::PP -e 'sub t { my $d = decode_json(do { local $/; open my $f, "<", $_[0] or die; <$f> });
        return map { $_->{fwd_s} + $_->{bwd_s} } @$d }
        my ($b0, $h0) = t($ARGV[0]); my ($b13, $h13) = t($ARGV[1]); my ($b10, $h10) = t($ARGV[2]);
        exit !($b10 > $b13 && $b13 > $b0 && $h10 == $h0 && $h13 == $h0)' \
    "$tmp/att-cudnn.json" "$tmp/att-cudnn_9.13.json" "$tmp/att-cudnn_9.10.json"
# ---- dtplan collectives ---------------------------------------------------------------
"$DT" collectives --instance p5.48xlarge -b 1M -e 1G -f 4 > "$tmp/n.txt" 2> "$tmp/err"
check "collectives: one row per size, NVLS for large messages on an H100 node" \
    [ $? -eq 0 -a "$(grep -c '^ *[0-9]\+  ' "$tmp/n.txt")" = 6 -a "$(grep -c ' 1073741824  nvls ' "$tmp/n.txt")" = 1 ]
"$DT" collectives --instance p4d.24xlarge --nodes 4 -b 8 -e 1G -f 8 --json > "$tmp/a.json"
"$DT" collectives --instance p4d.24xlarge --nodes 4 -b 8 -e 1G -f 8 --json > "$tmp/b.json"
check "collectives --json: byte-identical output for the same input" cmp -s "$tmp/a.json" "$tmp/b.json"
check "collectives --json: Simple only across AWS EFA nodes" \
    [ "$(grep -c '"protocol":' "$tmp/a.json")" -ge 10 -a "$(grep -c '"protocol":.*"LL' "$tmp/a.json")" = 0 ]
"$DT" collectives --instance p5.48xlarge --coll all_gather -b 1G -e 1G > "$tmp/n.txt" 2> "$tmp/err"
check "collectives --coll all_gather: a ring at 355.6 GB/s busbw on an H100 node" \
    [ $? -eq 0 -a "$(grep -c ' 1073741824  ring .* 355.61$' "$tmp/n.txt")" = 1 -a "$(grep -c 'all_gather$' "$tmp/n.txt")" = 1 ]
"$DT" collectives --instance BM.GPU.GB200.4 --nodes 2 -b 8G -e 8G > "$tmp/n.txt" 2> "$tmp/err"
check "collectives: 2 GB200 trays are one NVLink domain of 8 GPUs, NVLS over NVLink" \
    [ $? -eq 0 -a "$(grep -c '^2 x BM.GPU.GB200.4 in NVLink domains of 2: 1 node x 8 GPUs' "$tmp/n.txt")" = 1 \
      -a "$(grep -c ' 8589934592  nvls ' "$tmp/n.txt")" = 1 ]
"$DT" collectives --instance BM.GPU.GB200.4 --nodes 32 -b 8G -e 8G > "$tmp/n.txt" 2> "$tmp/err"
check "collectives: 32 GB200 trays are two racks of 16 across the network" \
    [ $? -eq 0 -a "$(grep -c 'in NVLink domains of 16: 2 nodes x 64 GPUs' "$tmp/n.txt")" = 1 ]
"$DT" collectives --instance p4d.24xlarge --algo nvls > "$tmp/n.txt" 2> "$tmp/err"
check "collectives: a pair the shape disables says so" \
    [ $? -eq 0 -a "$(grep -c 'disabled on this shape' "$tmp/n.txt")" -ge 1 ]
"$DT" collectives --instance p5.48xlarge --algo ring -b 1K -e 1G -f 1024 > "$tmp/n.txt" 2> "$tmp/err"
check "collectives --algo ring alone: LL at 1 KiB, Simple at 1 GiB, as NCCL_ALGO=Ring leaves the protocol to NCCL" \
    [ $? -eq 0 -a "$(grep -c '^ *1024  ring  *LL  ' "$tmp/n.txt")" = 1 \
      -a "$(grep -c '^ *1073741824  ring  *Simple  ' "$tmp/n.txt")" = 1 ]
"$DT" collectives --instance p5.48xlarge --proto Simple -b 1K -e 1K --json > "$tmp/n.txt" 2> "$tmp/err"
check "collectives --proto alone: the best algorithm in that protocol, chosen_by restricted" \
    [ $? -eq 0 -a "$(grep -c '"protocol":[[:space:]]*"Simple"' "$tmp/n.txt")" = 1 \
      -a "$(grep -c '"chosen_by":[[:space:]]*"restricted"' "$tmp/n.txt")" = 1 ]
"$DT" collectives --instance p5.48xlarge --nodes 4 --coll all_to_all -b 2G -e 2G > "$tmp/n.txt" 2> "$tmp/err"
check "collectives --coll all_to_all: point-to-point sends, 24 of 32 shares over EFA at its all-to-all share and cost (53.59 GB/s busbw)" \
    [ $? -eq 0 -a "$(grep -c 'all_to_all, over efa-p5' "$tmp/n.txt")" = 1 \
      -a "$(grep -c ' 2147483648  p2p .* 53\.59$' "$tmp/n.txt")" = 1 ]
"$DT" collectives --instance p5.48xlarge --coll all_to_all --algo ring > /dev/null 2> "$tmp/err"
check "collectives --coll all_to_all --algo: one line, exit 2" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan collectives: --algo: expected none with --coll all_to_all (NCCL runs it as point-to-point sends, no algorithm or protocol to choose), found one' ]
"$DT" collectives --gpu A100 --gpus-per-node 8 --nodes 2 > /dev/null 2> "$tmp/err"
check "collectives: several custom nodes need --net-gbps" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan collectives: --net-gbps: missing, expected a rate in Gbit/s for 2 nodes' ]
"$DT" collectives --instance p4d.24xlarge -b 1G -e 1M > /dev/null 2> "$tmp/err"
check "collectives: -e below -b is one line, exit 2" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan collectives: -e: expected a size no smaller than -b (1073741824), found 1048576' ]
"$DT" collectives --gpu H100 --gpus-per-node 8 --net-gbps 3200 --nics 8 --nodes 2 --fabric efa9 > /dev/null 2> "$tmp/err"
check "collectives: an unknown --fabric names the fabrics, exit 2" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan collectives: --fabric: expected one of ib, ib-sharp, roce, efa-p3dn, efa-p4d, efa-p5, efa-p5en, efa-p6, efa-p6-b300, efa-p6e, gpudirect-tcpx, gpudirect-tcpxo, tcp, found "efa9"' ]
"$DT" collectives --gpu B200 --gpus-per-node 8 --net-gbps 3200 --nics 8 --nodes 2 --fabric efa-p6 -b 8 -e 8 --json > "$tmp/n.json" 2> "$tmp/err"
check "collectives --fabric efa-p6: 8 B as tree/LL in 51.2 us (AWS's 18 us a hop; 50.6 published)" \
    grep -q '"time_s":[[:space:]]*5\.1200' "$tmp/n.json"
"$DT" collectives --gpu B200 --gpus-per-node 8 --net-gbps 3200 --nics 8 --nodes 4 --fabric ib-sharp -b 8G -e 8G --json > "$tmp/n.json" 2> "$tmp/err"
check "collectives --fabric ib-sharp: 8 GiB on 4 B200 nodes by NCCL's CollNetChain" \
    [ "$(grep -c '"algorithm":[[:space:]]*"collnet_chain"' "$tmp/n.json")" = 1 ]
check "collectives --fabric ib-sharp: at 0.7452 of the NICs, 553 GB/s busbw (554.4 published)" \
    grep -q '"busbw_GBps":[[:space:]]*553\.' "$tmp/n.json"
"$DT" collectives --gpu B200 --gpus-per-node 8 --net-gbps 3200 --nics 8 --nodes 4 --fabric ib -b 8G -e 8G --algo collnet_direct > "$tmp/n.txt" 2> "$tmp/err"
check "collectives --fabric ib --algo collnet_direct: disabled on this shape (CollNet only where the switches reduce)" \
    grep -q 'disabled on this shape' "$tmp/n.txt"
"$DT" tests/data/cli/ib-sharp.yaml > "$tmp/n.txt" 2> "$tmp/err"
check "scenario over ib-sharp: the DP buckets by CollNetDirect, plain ib's by NVLS tree" \
    [ "$(grep -c '^Collectives: sharp-32: 25 MiB all-reduce by NCCL collnet_direct/' "$tmp/n.txt")" = 1 \
      -a "$(grep -c '^Collectives: ib-32: 25 MiB all-reduce by NCCL nvls_tree/' "$tmp/n.txt")" = 1 ]
check "scenario over ib-sharp: an Assumed: line says CollNet's mid sizes are NCCL's model, not measured" \
    grep -q "^Assumed: sharp-32: b200-ib-sharp: the switches reduce (ib-sharp): .*validated from 512 MiB up only" "$tmp/n.txt"
"$DT" collectives --instance p5.48xlarge --nodes 2 -b 1M -e 1M > "$tmp/n.txt" 2> "$tmp/err"
check "collectives: the header names the network between the nodes and its step overhead" \
    [ "$(head -1 "$tmp/n.txt")" = 'p5.48xlarge: 2 nodes x 8 GPUs, 16 ranks, all_reduce, over efa-p5 (a message across it waits 8 us, 55 under Simple)' ]
"$DT" collectives --instance p5en.48xlarge --nodes 2 -b 1M -e 1M > "$tmp/n.txt" 2> "$tmp/err"
check "collectives: a network without a step overhead says nothing of it" \
    [ "$(head -1 "$tmp/n.txt")" = 'p5en.48xlarge: 2 nodes x 8 GPUs, 16 ranks, all_reduce, over efa-p5en' ]
"$DT" collectives --instance p5.48xlarge --nodes 4 -b 128M -e 128M > "$tmp/n.txt" 2> "$tmp/err"
check "collectives: beyond 2 nodes the plugin's tuner names the pair, marked *" \
    [ "$(head -1 "$tmp/n.txt")" = 'p5.48xlarge: 4 nodes x 8 GPUs, 32 ranks, all_reduce, over efa-p5 (a message across it waits 8 us, 55 under Simple); *: the pair the plugin'"'"'s aws-p5 tuner names (above 2 nodes)' ] &&
    grep -q ' ring  *LL128 .* \*$' "$tmp/n.txt"
"$DT" collectives --instance p5.48xlarge --nodes 4 -b 128M -e 128M --json > "$tmp/n.json" 2> "$tmp/err"
check "collectives --json: chosen_by names the tuner" \
    grep -q '"chosen_by":[[:space:]]*"aws-p5"' "$tmp/n.json"
"$DT" collectives --instance p4d.24xlarge -b 3X > /dev/null 2> "$tmp/err"
check "collectives: a bad size names what is expected" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan collectives: -b: expected a size from 1 to 1T, found "3X"' ]
"$DT" collectives --instance p4d.24xlarge -b 1G -e 1T -f 1.0000001 > /dev/null 2> "$tmp/err"
check "collectives: a factor that gives too many sizes is refused" \
    [ $? -eq 2 -a "$(cat "$tmp/err")" = 'dtplan collectives: -f: expected a factor giving at most 10000 sizes from -b to -e, found 1.0000001' ]
"$DT" collectives --instance g5.xlarge > /dev/null 2> "$tmp/err"
check "collectives: one rank has nothing to reduce" [ $? -eq 2 -a -s "$tmp/err" ]
"$DT" collectives --help > "$tmp/n.txt"
check "collectives --help prints the usage, exit 0" [ $? -eq 0 -a "$(grep -c '^usage: dtplan collectives' "$tmp/n.txt")" = 1 ]

# ---- memory per GPU, in every mode --------------------------------------------------
"$DT" -q tests/data/cli/llama-memory.yaml > "$tmp/m.txt"
check "memory: a cluster over its GPUs' memory is infeasible, with what does not fit and by how much" \
    [ "$(grep -c '^Infeasible: 1x-p5: 76.9 GiB per GPU (model state 29.9 GiB, activations 46.9 GiB) is over the 72.0 GiB usable of its 80 GiB by 4.9 GiB' "$tmp/m.txt")" = 1 ]
check "memory: the recommendation says why the smaller cluster cannot be used" \
    [ "$(grep -c '^Recommendation: scale_out: 8x-p5 .* 1x-p5 cannot be used: 76.9 GiB per GPU' "$tmp/m.txt")" = 1 ]
"$DT" -q tests/data/cli/llama-pp-memory.yaml > "$tmp/pm.txt"
check "memory: under a pipeline the Infeasible line names the stage it counted" \
    [ "$(grep -c '^Infeasible: 1x-p4d: [0-9.]* GiB per GPU of the first pipeline stage (model state' "$tmp/pm.txt")" = 1 ]
"$DT" -q --json tests/data/cli/llama-memory.yaml > "$tmp/m.json"
check "memory --json: memory_gib per cluster (no pipeline: stage null), tokens/s and MFU" \
    [ "$(grep -c '"memory_gib":' "$tmp/m.json")" = 2 -a "$(grep -c '"stage":	null' "$tmp/m.json")" = 2 -a "$(grep -c '"capacity":	72' "$tmp/m.json")" = 2 -a "$(grep -c '"tokens_per_s":	[0-9]' "$tmp/m.json")" = 2 -a "$(grep -c '"mfu":	0\.' "$tmp/m.json")" = 2 ]
"$DT" -q --json tests/data/cli/llama-recompute.yaml > "$tmp/r.json"
check "memory: full recompute keeps 2 s h a layer and makes one layer again (1.28 GiB), so one p5 fits (39.2 GiB of 72 with the GEMM workspaces: fp32 gradients, 4 bytes a parameter over zero2's 8)" \
    [ "$(grep -c '"total":	39.209,' "$tmp/r.json")" = 1 -a "$(grep -c '"feasible":	true' "$tmp/r.json")" = 2 ]
"$DT" -q --json tests/data/cli/llama-global-batch.yaml > "$tmp/g.json"
check "global_batch: 512 sequences are 8 micro-batches a worker on 64 GPUs, 64 on 8; 768 GPUs exceed it" \
    [ "$(grep -c '"grad_accum":	8,' "$tmp/g.json")" = 1 -a "$(grep -c '"grad_accum":	64,' "$tmp/g.json")" = 1 -a "$(grep -c '"infeasible_why":	"768 data-parallel replicas x batch_per_gpu 1 = 768 samples a micro-batch, over the global batch of 512' "$tmp/g.json")" = 1 ]
# ---- tensor parallelism and the layout search over it ---------------------------
"$DT" -q --json tests/data/cli/llama-tp8.yaml > "$tmp/t.json"
check "tp 8: parallel tp 8, dp 8; the layers wait for their all-reduces (tp_comm > 0); the first collective is the activations' all-reduce" \
    [ "$(grep -c '"tp":	8,' "$tmp/t.json")" = 1 -a "$(grep -c '"dp":	8,' "$tmp/t.json")" = 1 -a "$(grep -c '"tp_comm":	[1-9]' "$tmp/t.json")" = 1 -a "$(grep -m1 '"collective"' "$tmp/t.json" | grep -c all_reduce)" = 1 ]
"$DT" -q tests/data/cli/llama-tp8.yaml > "$tmp/t.txt"
check "tp 8: compute-bound (2x compute cuts the step most), the GPU links' tensor-parallel waits next" \
    [ "$(grep -c 'compute-bound: 64 H100 busy [0-9]*%; 2x compute would cut the step [0-9]*%, 2x GPU-link bandwidth [0-9]*%' "$tmp/t.txt")" -ge 1 ]
"$DT" -q tests/data/cli/llama-tp-auto.yaml > "$tmp/a.txt"
check "tp auto: each cluster's Layout line names the tensor-parallel size, the stage and the runner-up" \
    [ "$(grep -c '^Layout: .*: tp [0-9]* + [a-z0-9]*, batch_per_gpu [0-9]* .* faster than tp ' "$tmp/a.txt")" = 2 ]
# ---- assumptions named, never silent ------------------------------------------
cat > "$tmp/as.yaml" <<'YAML'
workload: {model: resnet50, batch_per_gpu: 64, precision: fp16}
input: {cpu_s_per_sample: 0.001, raw_bytes: 110000}
clusters:
  - {name: g6e, groups: [{role: train, instance: g6e.48xlarge, count: 1}]}
simulation: {steps: 3, warmup: 1}
YAML
"$DT" -q "$tmp/as.yaml" > "$tmp/as.txt" 2> "$tmp/err"
check "a GPU link the catalog does not give is named as assumed (PCIe, its rate), and raw_bytes as unmodelled" \
    [ "$(grep -c '^Assumed: g6e: g6e.48xlarge: intra_node_link unknown in the catalog: its GPUs assumed to reach each other over PCIe, [0-9]* GB/s a GPU$' "$tmp/as.txt")" = 1 -a "$(grep -c '^Assumed: g6e: input.raw_bytes: not modelled' "$tmp/as.txt")" = 1 ]
cat > "$tmp/tray.yaml" <<'YAML'
workload: {model: llama3-8b, precision: bf16, seq_len: 8192, global_batch: 64}
input: {cpu_s_per_sample: 0}
gradients: {precision: bf16, sharding: zero1}
parallel: {tp: 1, micro_batch: 1}
clusters:
  - {name: trays, groups: [{role: train, instance: BM.GPU.GB200.4, count: 2}]}
  - {name: tray, groups: [{role: train, instance: BM.GPU.GB200.4, count: 1}]}
simulation: {steps: 3, warmup: 1}
YAML
"$DT" -q "$tmp/tray.yaml" > "$tmp/tray.txt" 2> "$tmp/err"
check "2 GB200 trays: one NVLink node of 8 GPUs, said in an Assumed line, priced as 2 trays, over NVLink" \
    [ "$(grep -c '^Assumed: trays: BM.GPU.GB200.4: the 2 share NVLink domains of 72 GPUs (nvlink_domain): simulated as 1 node of 8 GPUs over NVLink (2 of them each)' "$tmp/tray.txt")" = 1 \
      -a "$(grep -c '^[* ] *trays .* 128\.000 ' "$tmp/tray.txt")" = 1 -a "$(grep -c '^Assumed: tray: BM.GPU.GB200.4: the' "$tmp/tray.txt")" = 0 ]
"$DT" -q --json "$tmp/as.yaml" > "$tmp/as.json"
check "--json: clusters[].assumptions[] holds them" \
    [ "$(grep -c 'intra_node_link unknown in the catalog' "$tmp/as.json")" = 1 -a "$(grep -c '"assumptions":' "$tmp/as.json")" = 1 ]
# ---- a fixed time a step (workload.step_overhead_s) ---------------------------
# twin NAME WORKLOAD_KEYS INPUT_KEYS [BASE_INPUT_KEYS]: ResNet-50 on 2 p4d.24xlarge run with
# the extra keys ($tmp/NAME1.json) and without ($tmp/NAME0.json), both with the base ones.
twin() {
    for k in 1 0; do
        if [ $k = 1 ]; then w=$2 i=$3; else w= i=; fi
        printf 'name: %s\nworkload: {model: resnet50, batch_per_gpu: 64, precision: fp16%s}\ninput: {cpu_s_per_sample: 0%s%s}\nclusters:\n  - {name: one, groups: [{role: train, instance: p4d.24xlarge, count: 2}]}\n' \
            "$1" "$w" "${4:-}" "$i" > "$tmp/$1$k.yaml"
        "$DT" -q --json "$tmp/$1$k.yaml" > "$tmp/$1$k.json" 2>&1
    done
}
twin so ', step_overhead_s: 0.05' ''
check "step_overhead_s 0.05 adds 50 ms to the step and to the optimizer's part, nothing else" \
    perl -MJSON::PP -e '
        sub rd { local $/; open my $f, "<", $_[0] or die; decode_json(<$f>)->{clusters}[0] }
        my ($a, $b) = (rd($ARGV[0]), rd($ARGV[1]));
        my $d = $a->{step_time_s}{mean} - $b->{step_time_s}{mean};
        my $o = $a->{breakdown_s}{optimizer} - $b->{breakdown_s}{optimizer};
        exit !(abs($d - 0.05) < 1e-5 && abs($o - 0.05) < 1e-5 &&
               abs($a->{breakdown_s}{compute} - $b->{breakdown_s}{compute}) < 1e-9)' "$tmp/so1.json" "$tmp/so0.json"
# ---- evaluation passes in the time to train ----------------------------------
twin ev '' ', eval_every_samples: 100000, eval_samples: 50000, eval_skip: 2' ', dataset_samples: 1280000'
check "evaluations: floor(1.28M / 100k) - 2 skipped = 10 passes of 50k samples forward, added to the time to train" \
    perl -MJSON::PP -e '
        sub rd { local $/; open my $f, "<", $_[0] or die; decode_json(<$f>)->{clusters}[0] }
        my ($a, $b) = (rd($ARGV[0]), rd($ARGV[1]));
        my $per = $a->{step_time_s}{mean} / ($a->{workers} * 64);     # a sample of the step
        my $d = $a->{time_to_train_s} - $b->{time_to_train_s};
        exit !($a->{evaluations} == 10 && $b->{evaluations} == 0 && $b->{evaluation_s} == 0 &&
               abs($d - $a->{evaluation_s}) < 1e-6 * $a->{time_to_train_s} &&
               $a->{evaluation_s} > 0 && $a->{evaluation_s} < 10 * 50000 * $per)' "$tmp/ev1.json" "$tmp/ev0.json"
# ---- tp_overlap hides each collective under its own product only ------------
"$DT" -q --json validate/published/llm_runs/tt-asynctp-h100-llama3-70b-vanilla-bf16.yaml > "$tmp/tpv.json" 2>&1
"$DT" -q --json validate/published/llm_runs/tt-asynctp-h100-llama3-70b-async-bf16.yaml > "$tmp/tpa.json" 2>&1
check "tp_overlap: faster, but at least one piece in tp of each collective stays exposed (issue 36)" \
    perl -MJSON::PP -e '
        sub rd { local $/; open my $f, "<", $_[0] or die; decode_json(<$f>)->{clusters}[0] }
        my ($v, $a) = (rd($ARGV[0]), rd($ARGV[1]));
        my ($tv, $ta) = ($v->{breakdown_s}{tp_comm}, $a->{breakdown_s}{tp_comm});
        printf "# vanilla %.2f s (tp %.2f), overlapped %.2f s (tp %.2f)\n",
            $v->{step_time_s}{mean}, $tv, $a->{step_time_s}{mean}, $ta;
        exit !($a->{step_time_s}{mean} < $v->{step_time_s}{mean} && $ta >= $tv / 8 * 0.999 &&
               $ta < $tv)' "$tmp/tpv.json" "$tmp/tpa.json"
# ---- a search with a fixed pipeline leaves out what cannot place it ---------
"$DT" plan -q --json validate/published/memory/recipe-nemotron4-340b.yaml > "$tmp/pp.json" 2> "$tmp/pp.err"
rc=$?
check "plan with a fixed tp 8 x pp 8: candidates that cannot place it are pruned and counted, not an error (exit $rc)" \
    sh -c '[ "$1" -eq 0 ] && [ ! -s "$2" ] && grep -q "\"pruned_pp\":	[1-9]" "$3"' _ "$rc" "$tmp/pp.err" "$tmp/pp.json"
# ---- bottleneck labels that agree with the numbers ------------------------------
"$DT" -q --json tests/data/bound/latency.yaml > "$tmp/lat.json"
check "exposed communication over idle links under NCCL's choice is collective-latency-bound, naming the algorithm and channels, not network-bound" \
    [ "$(grep -c '"bottleneck":	"latency"' "$tmp/lat.json")" = 1 -a "$(grep -c 'collective-latency-bound: .* busiest link is [0-9]*% busy: NCCL runs the longest collective (0.0763 MiB all_reduce) as [a-z_]*/[A-Za-z0-9]* over [0-9]* channels\{0,1\} at .* fewer ranks or more samples a step cut it' "$tmp/lat.json")" -ge 1 ]
sed 's/^input:/gradients: {strategy: ring}\ninput:/' tests/data/bound/latency.yaml > "$tmp/lat-ring.yaml"
"$DT" -q --json "$tmp/lat-ring.yaml" > "$tmp/lat-ring.json"
check "the same with a ring all-reduce is latency-bound, with the all-reduces and ranks" \
    [ "$(grep -c '"bottleneck":	"latency"' "$tmp/lat-ring.json")" = 1 -a "$(grep -c 'latency-bound: .* the per-message latency of 1 all-reduce over 128 ranks (across nodes), not bandwidth' "$tmp/lat-ring.json")" -ge 1 ]
cat > "$tmp/lat-nic.yaml" <<'EOF2'
name: lat-nic
workload: {model: resnet50, batch_per_gpu: 8, precision: fp16}
input: {cpu_s_per_sample: 0}
gradients: {strategy: auto, bucket_mb: 25}
clusters:
  - {name: c, groups: [{role: train, instance: p4d.24xlarge, count: 4}]}
simulation: {steps: 5, warmup: 1}
EOF2
"$DT" -q --json "$tmp/lat-nic.yaml" > "$tmp/lat-nic.json"
check "a NIC 20% busy under 3.8 ms of exposed all-reduce in a 10.9 ms step is not called network-bound (issue 35)" \
    [ "$(grep -c '"bottleneck":	"latency"' "$tmp/lat-nic.json")" = 1 -a "$(grep -c 'collective-latency-bound: .* as tree/Simple over 4 channels' "$tmp/lat-nic.json")" -ge 1 ]
"$DT" -q --json tests/data/bound/input.yaml > "$tmp/inp.json"
check "a stall with vCPUs to spare is input-bound (one loader, no prefetch), not CPU-bound" \
    [ "$(grep -c '"bottleneck":	"input"' "$tmp/inp.json")" = 1 -a "$(grep -c 'input-bound: each batch.s preprocessing is waited for (1 loader worker, prefetch 0)' "$tmp/inp.json")" -ge 1 ]
# ---- clusters of different sizes compared fairly ------------------------------
cat > "$tmp/fair.yaml" <<'YAML'
workload: {model: resnet50, batch_per_gpu: 64, precision: fp16}
input: {cpu_s_per_sample: 0}
objective: {minimize: cost_per_step}
clusters:
  - {name: one, groups: [{role: train, instance: p4d.24xlarge, count: 1}]}
  - {name: two, groups: [{role: train, instance: p4d.24xlarge, count: 2}]}
simulation: {steps: 3, warmup: 1}
YAML
"$DT" -q "$tmp/fair.yaml" > "$tmp/fair.txt"
check "cost per step of clusters with other global batches is compared per sample, and the report says so" \
    grep -q '^Objective: cost_per_step, ranked by cost per sample (the clusters. global batches differ: 512 to 1024 samples a step)$' "$tmp/fair.txt"
# ---- a cluster that cannot be simulated ------------------------------------
"$DT" -q tests/data/cli/not-comparable.yaml > "$tmp/nc.txt" 2> "$tmp/err"
rc=$?
check "a cluster that cannot be simulated is listed as not comparable, with its reason; the rest compared; exit 0" \
    [ $rc -eq 0 -a "$(grep -c '^Not comparable: cpu: c5.18xlarge: a compute time measured on a GPU does not carry to a CPU worker' "$tmp/nc.txt")" = 1 -a "$(grep -c '^Recommendation: keep: gpu .*The first cluster, cpu, could not be simulated' "$tmp/nc.txt")" = 1 ]
"$DT" -q --json tests/data/cli/not-comparable.yaml > "$tmp/nc.json"
check "--json: not_comparable[] names it; clusters[] holds the one compared" \
    [ "$(grep -c '"cluster":	"cpu",' "$tmp/nc.json")" = 1 -a "$(grep -c '"name":	"gpu"' "$tmp/nc.json")" = 1 -a "$(grep -c '"name":	"cpu"' "$tmp/nc.json")" = 0 ]
sed '/name: gpu/d' tests/data/cli/not-comparable.yaml > "$tmp/nc1.yaml"
"$DT" -q "$tmp/nc1.yaml" > /dev/null 2> "$tmp/err"
check "when none can be simulated: exit 1 with the first one's reason" \
    [ $? -eq 1 -a "$(grep -c '^dtplan: cluster cpu: c5.18xlarge: a compute time measured' "$tmp/err")" = 1 ]
# ---- pipeline parallelism and the layout search over tp, pp, interleave, recompute ----
"$DT" -q tests/data/cli/llama-3d-auto.yaml > "$tmp/p.txt"
"$DT" -q --json tests/data/cli/llama-3d-auto.yaml > "$tmp/p.json"
check "pp auto: unsharded 70B needs tp x pp >= 16; the search picks a pipelined layout, the Layout and Pipeline lines say which" \
    [ "$(grep -c '^Layout: 8x-p5: tp [0-9]* x pp [0-9]* (interleave [0-9]) + none, recompute [a-z]*, batch_per_gpu' "$tmp/p.txt")" = 1 -a "$(grep -c '^Pipeline: 8x-p5: tp [0-9]* x pp [0-9]*' "$tmp/p.txt")" = 1 ]
check "pp auto --json: both clusters pipelined (parallel.pp > 1), each with a pipeline bubble" \
    [ "$(grep -c '"pp":	\([2-9]\|[1-9][0-9]\),' "$tmp/p.json")" = 2 -a "$(grep -c '"pipeline_bubble":	[0-9]*\.[0-9]*[1-9]' "$tmp/p.json")" = 2 ]
check "a cluster's own parallel: {tp: 8, pp: 4} runs as given; only full recompute fits (94.3 GiB a GPU without)" \
    [ "$(grep -c '^Layout: 4x-p5-pp4: none, recompute full, .* recompute selective needs 94.3 GiB a GPU' "$tmp/p.txt")" = 1 -a "$(grep -c '^Pipeline: 4x-p5-pp4: tp 8 x pp 4 x dp 1' "$tmp/p.txt")" = 1 ]
check "the recommendation compares the layouts" \
    [ "$(grep -c '^Recommendation: .*In layout terms: 8x-p5 runs tp [0-9]* x pp [0-9]* x dp [0-9]* (none): .*; 4x-p5-pp4 runs tp 8 x pp 4 x dp 1 (none): .* and its step is [0-9.]* x as long' "$tmp/p.txt")" = 1 ]

# Table columns line up by display width: a CJK cluster name takes two columns a character.
printf 'name: x\nworkload: {model: resnet50, batch_per_gpu: 32}\ninput: {cpu_s_per_sample: 0.001}\nclusters:\n  - name: "\350\241\250\346\240\274"\n    groups: [{instance: p3.2xlarge, count: 1}]\n  - name: b\n    groups: [{instance: p3.8xlarge, count: 1}]\n' > "$tmp/cjk.yaml"
"$DT" -q "$tmp/cjk.yaml" > "$tmp/cjk.txt" 2>&1
if python3 -c '
import sys, unicodedata
def w(s): return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in s)
rows = [l for l in open(sys.argv[1], encoding="utf-8") if "1x p3." in l]
cols = [w(l[:l.index("1x p3.")]) for l in rows]
sys.exit(0 if len(cols) == 2 and cols[0] == cols[1] else 1)' "$tmp/cjk.txt"; then
    echo "ok - cli: a CJK cluster name keeps the table's columns aligned (display width)"
else
    echo "FAIL - cli: columns misaligned after a CJK name: $(grep '1x p3' "$tmp/cjk.txt" | cut -c1-40)"
fi
exit 0
