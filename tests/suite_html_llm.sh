#!/bin/sh
# suite_html_llm.sh - the HTML report of an LLM scenario reads at 1,400 px:
# scenarios/llm-70b-3d.yaml as listed (dtplan --report) and searched
# (dtplan plan --report).  Prints "ok - ..." / "FAIL - ..." lines for
# tests/run.sh, and "skip - html llm: chromium not installed" (neither pass
# nor fail) before the browser checks when the browser is missing.
#
# Without a browser: short cells (the bottleneck column holds its kind, the
# sentence goes in the row under it), times in seconds for minute-long
# steps, dollars with $ and thousands separated, and the log-scale GPU axis
# drawn with sampled curves.  With Debian's chromium, each report is laid out
# in a 1400 x 3000 window with tests/html_layout.js appended to a copy
# (--dump-dom then carries what the browser measured): nothing wider than
# the window, no tall table row, no chart text over another, over a point
# or cut at the chart's edge; and screenshot in the same start of the
# browser (html-llm/*.png under $DT_TEST_OUT, kept as artefacts), decoded
# by tests/png_check.pl.
BUILD=${BUILD:-build}
DT="$BUILD/dtplan"
SC=scenarios/llm-70b-3d.yaml
art=${DT_TEST_OUT:-tests/out}/html-llm
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-html-llm.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM

html_tag="html llm"
. tests/html_check.sh

if [ ! -x "$DT" ]; then
    fail "$DT is not built"
    exit 0
fi
mkdir -p "$art"

# the search (about 5 s) runs while the listed report is written
"$DT" plan -q --report "$art/plan.html" "$SC" > /dev/null 2> "$tmp/plan.err" &
plan_pid=$!
"$DT" -q --report "$art/listed.html" "$SC" > /dev/null 2> "$tmp/err"
check "dtplan --report $SC exits 0" [ $? -eq 0 -a -s "$art/listed.html" ]
wait $plan_pid
check "dtplan plan --report $SC exits 0" [ $? -eq 0 -a -s "$art/plan.html" ]

# ---- the file --------------------------------------------------------------
for m in listed plan; do
    H="$art/$m.html"
    n=$(count '<tr class="cluster' "$H")
    check "$m: a row under each of the $n clusters with its bottleneck in full" \
        [ "$n" -ge 3 -a "$(count '<tr class="why' "$H")" -eq "$n" ]
    long=$(grep -o '<td class="kind"[^>]*>[^<]*</td>' "$H" | sed 's/.*">//; s/<.*//' | awk 'length > 25' | head -n 1)
    check "$m: the bottleneck column holds its kind only${long:+ (found \"$long\")}" \
        sh -c "[ -z '$long' ] && grep -q '<td class=\"kind\" title=\"compute-bound: ' '$H'"
    check "$m: minute-long steps in seconds, in the chart and the table" \
        sh -c "grep -q 'time per training step (s)' '$H' && grep -q '<th>step (s)</th>' '$H' &&
               ! grep -q '[0-9]\{5\}\.[0-9] ms<' '$H'"
    check "$m: the cost axis in millions of dollars (\$1.0M, \$1M)" has '>\$[0-9][0-9.]*M</text>' "$H"
    check "$m: dollars to train with thousands separated" \
        sh -c "grep -q '<td class=\"num\">[0-9]\{1,3\},[0-9]\{3\},[0-9]\{3\}</td>' '$H'"
    # each scaling chart is tall enough for its legend's last line (a text's
    # baseline plus its descent, 4 px, inside the chart's height)
    low=$(awk '/<svg id="chart-scaling-/ { h = $0; sub(/.* height="/, "", h); sub(/".*/, "", h); h += 0; n++ }
               /<\/svg>/ { h = 0 }
               h && /<text / { y = $0; sub(/.* y="/, "", y); sub(/".*/, "", y); if (y + 4 > h) bad++ }
               END { printf "%d %d", n, bad }' "$H")
    check "$m: the scaling charts' legends end inside their charts (charts, texts below: $low)" \
        [ "${low%% *}" -ge 2 -a "${low##* }" -eq 0 ]
done
# The listed 70B clusters span 64 to 512 GPUs: a log axis, where each line
# between two sizes is sampled (16 points a segment), so it bends as the
# ideal line does; straight, it would be another interpolation.
H="$art/listed.html"
check "listed: the GPU axis is logarithmic" has 'GPUs (data-parallel workers, log scale)' "$H"
pts=$(grep -o '<polyline class="measured"[^>]*points="[^"]*"' "$H" | head -n 1 | sed 's/.*points="//; s/"$//' |
      wc -w | tr -d ' ')
check "listed: a line between two sizes on the log axis is sampled ($pts points for 2 sizes)" \
    [ "${pts:-0}" -eq 17 ]

# ---- laid out by a browser --------------------------------------------------
html_find_chrome
if [ -z "$CHROME" ]; then
    echo "skip - html llm: chromium not installed"
    exit 0
fi
HTML_WINDOW=1400,3000
for m in listed plan; do
    { sed 's|</body>||; s|</html>||' "$art/$m.html"
      printf '<script>\n'; cat tests/html_layout.js; printf '</script>\n</body>\n</html>\n'; } > "$tmp/$m.html"
    html_render_both "file://$(cd "$tmp" && pwd)/$m.html" "$art/$m.dom.html" "$art/$m.png"
    L="$tmp/$m.layout"
    sed -n '/id="layout-check"/,/<\/pre>/p' "$art/$m.dom.html" 2> /dev/null | sed 's/&amp;/\&/g' > "$L"
    sed -n 's/^/# /; /^# [a-z]/p' "$L" | head -n 12
    v() { sed -n "s/^$1 \\([0-9]*\\).*/\\1/p" "$L"; }
    sw=$(v scroll-width) tr=$(v table-right) tall=$(v tallest-row)
    texts=$(sed -n 's/^texts \([0-9]*\) .*/\1/p' "$L")
    over=$(sed -n 's/.* overlaps \([0-9]*\) .*/\1/p' "$L")
    clip=$(sed -n 's/.* clipped \([0-9]*\)$/\1/p' "$L")
    check "$m: chromium lays the page out (${texts:-no} chart texts measured)" [ "${texts:-0}" -ge 60 ]
    check "$m: nothing wider than the 1400 px window (page ${sw:-?} px)" [ "${sw:-9999}" -le 1400 ]
    check "$m: the cluster table fits without scrolling (right edge ${tr:-?} px)" [ "${tr:-9999}" -le 1400 ]
    check "$m: no table row taller than 3 lines (tallest ${tall:-?} px)" [ "${tall:-9999}" -le 60 ]
    check "$m: no chart text over another or over a point (${over:-?} found)" [ "${over:-1}" -eq 0 ]
    check "$m: no chart text cut at the chart's edge (${clip:-?} found)" [ "${clip:-1}" -eq 0 ]
    # compute bars #4e79a7; the Pareto front and communication #e15759
    png=$(perl tests/png_check.pl "$art/$m.png" 4e79a7 e15759 2> /dev/null)
    echo "# $m: $png"
    w=$(echo "$png" | sed -n 's/.*w=\([0-9]*\).*/\1/p')
    colours=$(echo "$png" | sed -n 's/.*colours=\([0-9]*\).*/\1/p')
    blue=$(echo "$png" | sed -n 's/.*4e79a7=\([0-9]*\).*/\1/p')
    check "$m: the screenshot ($m.png) is 1400 px wide and not blank (${colours:-0} colours)" \
        [ "${w:-0}" -eq 1400 -a "${colours:-0}" -ge 50 ]
    check "$m: the screenshot shows the compute bars (${blue:-0} pixels of #4e79a7)" [ "${blue:-0}" -ge 5000 ]
done
