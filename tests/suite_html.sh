#!/bin/sh
# suite_html.sh - dtplan --report: the self-contained HTML report.
# Prints "ok - ..." / "FAIL - ..." lines for tests/run.sh, and
# "skip - html: chromium not installed" (neither pass nor fail) when the
# browser is missing.  Run from the repository root; BUILD defaults to build.
#
# Without a browser: the file's structure (charts, axis titles, legends,
# escaping, nothing fetched from elsewhere), the command line and
# determinism.  With Debian's chromium: the report is rendered headless to
# html/report.png (kept as the test's artefact) and its DOM to
# html/report.dom.html under $DT_TEST_OUT (tests/run.sh's directory for the
# run, tests/out/last after it; tests/out when run alone); the DOM must hold
# the charts and the PNG must show them (tests/png_check.pl decodes it: size,
# colours, the exact fill colours of the bars and of the Pareto front).
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
SC=tests/data/report/scaling.yaml
S1=scenarios/seeds/s1-hetero-tfdata-resnet50.yaml
art=${DT_TEST_OUT:-tests/out}/html
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-html.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

html_tag=html
. tests/html_check.sh

if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi
mkdir -p "$art"

"$DT" -q --report "$tmp/r.html" "$SC" > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--report exits 0 and prints nothing on stderr" [ $rc -eq 0 -a ! -s "$tmp/err" ]
check "--report leaves the table on stdout" has '^Recommendation: ' "$tmp/out"
H="$tmp/r.html"
nclusters=$(grep -c '^  - name:' "$SC")

# tick labels of five digits or more read in k, M or G, a cost axis's with $
# (it says $4M)
"$DT" -q --report "$tmp/llm.html" scenarios/llm-70b-3d.yaml > /dev/null 2>&1
long=$(grep -o '<text x="[0-9.]*" y="[0-9.]*" text-anchor="[a-z]*">[$]*[0-9.,]*[kMG]*</text>' "$tmp/llm.html" |
       sed 's/.*">//; s/<.*//; s/^[$]//' | grep -E '^[0-9]{5,}' | head -n 3 | tr '\n' ' ')
check "the 70B report's tick labels say k, M or G, no five-digit numbers${long:+ (found $long)}" \
    sh -c "[ -s '$tmp/llm.html' ] && [ -z '$long' ] && grep -q '>[$][0-9.]*M</text>' '$tmp/llm.html'"

check "an HTML5 document" sh -c "head -n 1 '$H' | grep -q '^<!DOCTYPE html>' && tail -n 1 '$H' | grep -q '^</html>'"
check "self-contained: no scripts, links, imports or remote URLs" \
    sh -c "! grep -Eiq '<script|<link|<img|@import|url\\(|https?://|src=' '$H'"
check "the breakdown chart is there, one bar row per cluster" \
    [ "$(count 'class="bar-row"' "$H")" -eq "$nclusters" ]
check "breakdown bars for compute and communication" \
    sh -c "grep -q 'class=\"bar seg-compute\"' '$H' && grep -q 'class=\"bar seg-comm\"' '$H'"
check "the cost against time chart with the Pareto front" \
    sh -c "grep -q 'id=\"chart-pareto\"' '$H' && grep -q 'class=\"point front' '$H'"
check "one point per cluster in the cost chart" [ "$(count '<g class="point' "$H")" -eq "$nclusters" ]
check "scaling charts: throughput and efficiency" \
    sh -c "grep -q 'id=\"chart-scaling-throughput\"' '$H' && grep -q 'id=\"chart-scaling-efficiency\"' '$H'"
check "scaling series for both instance types (p4d: 4 sizes, p3.16xlarge: 2)" \
    [ "$(count 'class="series"' "$H")" -eq 4 ]
# the scenario minimises cost_to_train: the cost chart is cost to train against time to train
for t in 'time per training step (ms)' 'time to train (h)' 'cost to train (USD)' \
         'throughput (samples/s)' 'scaling efficiency (%)' 'GPUs (data-parallel workers'; do
    check "axis title \"$t\"" has "$t" "$H"
done
check "every chart has a legend" [ "$(count 'class="legend"' "$H")" -eq 4 ]
check "the recommendation text" has '<section id="recommendation">' "$H"
# cost_to_train: the chart's axes are the text report's front, time and cost to train
cat > "$tmp/train.yaml" <<'YAML'
workload: {model: resnet50, batch_per_gpu: 128, precision: fp16}
input: {cpu_s_per_sample: 0.001, dataset_samples: 1281167, epochs: 1}
objective: {minimize: cost_to_train}
clusters:
  - {name: one, groups: [{role: train, instance: p4d.24xlarge, count: 1}]}
  - {name: eight, groups: [{role: train, instance: p4d.24xlarge, count: 8}]}
simulation: {steps: 3, warmup: 1}
YAML
"$DT" -q --report "$tmp/t.html" "$tmp/train.yaml" > /dev/null 2>&1
check "cost_to_train: the cost chart plots cost to train against time to train, and the table has both" \
    sh -c "grep -q 'time to train (h)' '$tmp/t.html' && grep -q 'cost to train (USD)' '$tmp/t.html' && grep -q '<th>to train</th><th>\\$ to train</th>' '$tmp/t.html'"
check "text from the scenario is escaped" \
    sh -c "grep -q 'report-scaling &lt;p4d &amp; p3&gt;' '$H' && ! grep -q 'report-scaling <p4d' '$H'"

"$DT" -q --report "$tmp/s1.html" "$S1" > /dev/null 2>&1
check "a scenario without several sizes explains how to get a scaling curve" \
    sh -c "grep -q 'id=\"no-scaling\"' '$tmp/s1.html' && ! grep -q 'chart-scaling' '$tmp/s1.html'"
"$DT" -q --report "$tmp/r2.html" "$SC" > /dev/null 2>&1
check "the same scenario and seed give a byte-identical report" cmp -s "$H" "$tmp/r2.html"

"$DT" -q "$SC" --report > "$tmp/out" 2> "$tmp/err"
rc=$?
check "--report without a file exits 2" [ $rc -eq 2 ]
check "with one line naming --report" \
    sh -c "[ \$(wc -l < '$tmp/err') -eq 1 ] && grep -q -- '--report: expected a file name' '$tmp/err'"
"$DT" -q --report "$tmp/none/r.html" "$SC" > /dev/null 2> "$tmp/err"
rc=$?
check "an unwritable report path exits 2" [ $rc -eq 2 ]

cp "$H" "$art/report.html"

# ---- rendered by a browser -------------------------------------------------
html_find_chrome
if [ -z "$CHROME" ]; then
    echo "skip - html: chromium not installed"
    exit 0
fi
url="file://$(cd "$art" && pwd)/report.html"
html_render "$url" "$art/report.dom.html" "$art/report.png"
check "chromium dumps the rendered DOM" [ -s "$art/report.dom.html" ]
D="$art/report.dom.html"
check "the DOM has the four charts" [ "$(count '<svg id="chart-' "$D")" -eq 4 ]
check "the DOM has a bar row per cluster" [ "$(count 'class="bar-row"' "$D")" -eq "$nclusters" ]
check "the DOM has the axis titles and legends" \
    sh -c "grep -q 'cost to train (USD)' '$D' && grep -q 'class=\"legend\"' '$D'"
check "the DOM has the recommendation" has 'id="recommendation"' "$D"
check "chromium writes a screenshot (report.png, kept in the run's output directory)" [ -s "$art/report.png" ]
if [ -s "$art/report.png" ]; then
    html_png_checks "$art/report.png"
fi
