#!/bin/sh
# The catalog search end to end (dtplan plan; docs/plan.md): each hand-built case runs, the
# output is the same byte for byte run to run, under "dtplan SCENARIO" and "dtplan plan
# SCENARIO", and under mpirun -np 2; the JSON parses; bad plan: sections give their one-line
# error and status 2; -o never leaves a partial file.
# The goldens of scenarios/plan-*.yaml are compared by tests/suite_golden.sh; regenerate them
# after a deliberate change with: UPDATE_PLAN_GOLDEN=1 sh tests/suite_plan.sh (and review).
BUILD=${BUILD:-build}
bin="$BUILD/dtplan"
out=${DT_TEST_OUT:-tests/out}/plan
mkdir -p "$out"

if [ -n "$UPDATE_PLAN_GOLDEN" ]; then
    for f in scenarios/plan-*.yaml; do
        name=$(basename "$f" .yaml)
        "$bin" -q "$f" > "tests/golden/$name.txt" 2>&1
        "$bin" -q --json "$f" > "tests/golden/$name.json" 2>&1
        echo "# wrote tests/golden/$name.txt and .json"
    done
fi

for f in tests/data/plan/*.yaml; do
    name=$(basename "$f" .yaml)
    "$bin" plan -q "$f" > "$out/$name.1.txt" 2> "$out/$name.err"
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "FAIL - plan $name: dtplan plan exited with $rc: $(head -1 "$out/$name.err")"
        continue
    fi
    "$bin" plan -q "$f" > "$out/$name.2.txt" 2>&1
    if cmp -s "$out/$name.1.txt" "$out/$name.2.txt"; then
        echo "ok - plan $name: two runs print the same report byte for byte"
    else
        echo "FAIL - plan $name: two runs differ"
    fi
    # a scenario with its own clusters runs them without plan; one without
    # searches either way
    grep -q '^clusters:' "$f" && continue
    "$bin" -q "$f" > "$out/$name.3.txt" 2>&1
    if cmp -s "$out/$name.1.txt" "$out/$name.3.txt"; then
        echo "ok - plan $name: dtplan SCENARIO (plan: section, no clusters) searches as dtplan plan"
    else
        echo "FAIL - plan $name: dtplan SCENARIO and dtplan plan SCENARIO differ"
    fi
done

# JSON output parses and names the recommendation.
f=tests/data/plan/deadline.yaml
if "$bin" plan -q --json "$f" > "$out/deadline.json" 2>&1 &&
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["recommendation"]["action"]=="scale_out", d["recommendation"]; assert len(d["top"])>0 and len(d["front"])>0' "$out/deadline.json" 2> "$out/json.err"; then
    echo "ok - plan --json: one JSON object with top, front and the recommendation (scale_out)"
else
    echo "FAIL - plan --json: $(tail -1 "$out/json.err")"
fi

# Under mpirun the sweep is split across ranks; the output is the same as one process.
if command -v mpirun > /dev/null 2>&1; then
    for fmt in txt json; do
        flag=""
        [ $fmt = json ] && flag=--json
        f=scenarios/plan-resnet50-imagenet.yaml
        "$bin" plan -q $flag "$f" > "$out/one.$fmt" 2>&1
        # Open MPI's own start-up allocations are never freed: under "make check" LeakSanitizer
        # would report them (dtplan's frees are checked by the single-process runs above).
        ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        mpirun --allow-run-as-root --oversubscribe --bind-to none -x ASAN_OPTIONS -np 2 \
            "$bin" plan -q $flag "$f" \
            > "$out/mpi.$fmt" 2> "$out/mpi.err"
        rc=$?
        if [ $rc -eq 0 ] && cmp -s "$out/one.$fmt" "$out/mpi.$fmt"; then
            echo "ok - plan under mpirun -np 2 ($fmt): byte-identical to one process"
        else
            echo "FAIL - plan under mpirun -np 2 ($fmt): status $rc or output differs: $(head -1 "$out/mpi.err")"
        fi
    done
else
    echo "# skip - mpirun not found: the split across ranks is not run here"
fi

# Bad plan: sections: one line, status 2.
for f in tests/data/plan/bad/*.yaml; do
    name=$(basename "$f" .yaml)
    want=$(cat "${f%.yaml}.err")
    got=$("$bin" plan -q "$f" 2>&1 > /dev/null)
    rc=$?
    if [ $rc -eq 2 ] && [ "$got" = "$want" ]; then
        echo "ok - plan bad input $name: status 2 and its error line"
    else
        echo "FAIL - plan bad input $name: expected status 2 and \"$want\", got status $rc and \"$got\""
    fi
done

# Bad flags.
got=$("$bin" plan --top 0 tests/data/plan/deadline.yaml 2>&1 > /dev/null)
rc=$?
want='dtplan plan: --top: expected an integer from 1 to 1000, found "0"'
if [ $rc -eq 2 ] && [ "$got" = "$want" ]; then
    echo "ok - plan --top 0: status 2 and its error line"
else
    echo "FAIL - plan --top 0: got status $rc and \"$got\""
fi

# -o into a missing directory: status 2, nothing written.
rm -rf "$out/missing"
"$bin" plan -q -o "$out/missing/report.txt" tests/data/plan/deadline.yaml > /dev/null 2>&1
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$out/missing" ]; then
    echo "ok - plan -o into a missing directory: status 2, no file"
else
    echo "FAIL - plan -o into a missing directory: status $rc"
fi
"$bin" plan -q -o "$out/written.txt" tests/data/plan/deadline.yaml > /dev/null 2>&1
if cmp -s "$out/written.txt" "$out/deadline.1.txt"; then
    echo "ok - plan -o FILE writes the same report as standard output"
else
    echo "FAIL - plan -o FILE differs from standard output"
fi

# ---- the outputs of dtplan SCENARIO for a search: --csv, --report, --trace ----
f=tests/data/plan/deadline.yaml
"$bin" plan -q --json "$f" > "$out/o.json" 2>&1
"$bin" plan -q --csv "$f" > "$out/o.csv" 2> "$out/csv.err"
rc=$?
ntop=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["top"]))' "$out/o.json")
if [ $rc -eq 0 ] && [ ! -s "$out/csv.err" ] && [ "$(wc -l < "$out/o.csv")" -eq $((ntop + 1)) ]; then
    echo "ok - plan --csv: a header and one line per row of the ranked table ($ntop)"
else
    echo "FAIL - plan --csv: status $rc, $(wc -l < "$out/o.csv") lines for $ntop rows"
fi
# Rows in rank order: the step time and cost per step of row i are those of top[i] in the JSON,
# the first row alone is recommended, every line has the 51 fields of docs/reports.md, and
# the time to train over the step's band is the JSON's train_band_s.
same=$(perl -MJSON::PP -MText::ParseWords -e '
    local $/; open my $j, "<", $ARGV[0] or die; my $r = decode_json(<$j>); close $j;
    open my $c, "<", $ARGV[1] or die; my @l = split /\n/, <$c>; shift @l;
    my $bad = @l == @{$r->{top}} ? 0 : 1;
    for my $i (0 .. $#l) {
        my @f = parse_line(",", 0, $l[$i]);
        my $k = $r->{top}[$i];
        my $tb = $k->{train_band_s} // [];
        $bad++ unless @f == 51 && index($f[0], $k->{name}) == 0 && $f[4] == $k->{step_s}
            && $f[24] == $k->{cost_per_step_usd} && $f[2] eq ($i == 0 ? "yes" : "no")
            && $f[30] eq $k->{bound} && defined $tb->[1] && $f[47] == $tb->[0] && $f[48] == $tb->[1];
    }
    print $bad;' "$out/o.json" "$out/o.csv" 2>&1)
if [ "$same" = 0 ]; then
    echo "ok - plan --csv agrees with --json on the ranked rows, their order and the recommendation"
else
    echo "FAIL - plan --csv and --json disagree: $same"
fi
names=$(perl -MText::ParseWords -ne 'my @f = parse_line(",", 0, $_); print "$f[0]\n"' "$out/o.csv")
if [ "$(echo "$names" | wc -l)" -eq $((ntop + 1)) ] && [ -z "$(echo "$names" | sort | uniq -d)" ]; then
    echo "ok - plan --csv: cluster names are distinct (strategy and bucket in the name)"
else
    echo "FAIL - plan --csv: two rows share a cluster name"
fi
"$bin" -q --csv "$f" > "$out/o3.csv" 2>&1
"$bin" plan -q --csv -o "$out/o2.csv" "$f" > /dev/null 2>&1
if cmp -s "$out/o.csv" "$out/o2.csv" && cmp -s "$out/o.csv" "$out/o3.csv"; then
    echo "ok - plan --csv: the same with -o FILE and as dtplan --csv SCENARIO"
else
    echo "FAIL - plan --csv: -o FILE or dtplan --csv SCENARIO differ"
fi
got=$("$bin" plan -q --csv --json "$f" 2>&1 > /dev/null)
rc=$?
want='dtplan plan: --csv: expected at most one of --json and --csv, found both'
if [ $rc -eq 2 ] && [ "$got" = "$want" ]; then
    echo "ok - plan --csv --json: status 2 and its error line"
else
    echo "FAIL - plan --csv --json: got status $rc and \"$got\""
fi

# --report and --trace: the report on stdout is unchanged; the files are complete and
# deterministic, and the same under mpirun.
"$bin" plan -q --report "$out/r.html" --trace "$out/t.json" "$f" > "$out/rt.txt" 2> "$out/rt.err"
rc=$?
if [ $rc -eq 0 ] && [ ! -s "$out/rt.err" ] && cmp -s "$out/rt.txt" "$out/deadline.1.txt"; then
    echo "ok - plan --report --trace: status 0, the same table on stdout"
else
    echo "FAIL - plan --report --trace: status $rc: $(head -1 "$out/rt.err")"
fi
"$bin" plan -q --report "$out/r2.html" --trace "$out/t2.json" "$f" > /dev/null 2>&1
if cmp -s "$out/r.html" "$out/r2.html" && cmp -s "$out/t.json" "$out/t2.json"; then
    echo "ok - plan --report --trace: two runs write the same files byte for byte"
else
    echo "FAIL - plan --report --trace: two runs differ"
fi
"$bin" -q --report "$out/r3.html" --trace "$out/t3.json" "$f" > /dev/null 2>&1
if cmp -s "$out/r.html" "$out/r3.html" && cmp -s "$out/t.json" "$out/t3.json"; then
    echo "ok - dtplan --report --trace SCENARIO (plan: section, no clusters) writes the same files"
else
    echo "FAIL - dtplan --report --trace SCENARIO differs from dtplan plan"
fi
# The clusters of the HTML: the top N, then the Pareto front's that are not in it.
nhtml=$(python3 -c '
import json,sys
d=json.load(open(sys.argv[1]))
key=lambda p:(p["name"],p.get("strategy"),p.get("bucket_mib"))
top=[key(p) for p in d["top"]]
print(len(top)+len([p for p in d["front"] if key(p) not in top]))' "$out/o.json")
H="$out/r.html"
if [ "$(grep -c 'class="bar-row"' "$H")" -eq "$nhtml" ] &&
    [ "$(grep -o '<g class="point' "$H" | wc -l)" -eq "$nhtml" ]; then
    echo "ok - plan --report: a breakdown bar and a cost point for each of the top $ntop and the front ($nhtml)"
else
    echo "FAIL - plan --report: expected $nhtml bar rows and points"
fi
if grep -q 'id="chart-pareto"' "$H" && grep -q 'class="point front' "$H" &&
    grep -q 'id="chart-scaling-throughput"' "$H" && grep -q 'id="chart-scaling-efficiency"' "$H"; then
    echo "ok - plan --report: the Pareto chart and the scaling curve (one instance type at several sizes)"
else
    echo "FAIL - plan --report: a chart is missing"
fi
reason=$(python3 -c 'import json,sys,html; print(html.escape(json.load(open(sys.argv[1]))["recommendation"]["reason"]))' "$out/o.json")
if grep -q '<section id="recommendation">' "$H" && grep -qF -- "$reason" "$H" &&
    grep -q 'class="cluster-label best"' "$H"; then
    echo "ok - plan --report: the recommendation text, and the recommended cluster marked"
else
    echo "FAIL - plan --report: the recommendation is missing"
fi
if python3 -c '
import json,sys
d=json.load(open(sys.argv[1])); r=json.load(open(sys.argv[2]))
names=[e["args"]["name"] for e in d["traceEvents"] if e.get("name")=="process_name"]
want="cluster "+r["recommendation"]["cluster"]
assert len(names)==1 and names[0].startswith(want), (names, want)
assert any(e.get("ph")=="X" for e in d["traceEvents"])' "$out/t.json" "$out/o.json" 2> "$out/t.err"; then
    echo "ok - plan --trace: a Chrome trace of the recommended cluster only"
else
    echo "FAIL - plan --trace: $(tail -1 "$out/t.err")"
fi
if command -v mpirun > /dev/null 2>&1; then
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
    mpirun --allow-run-as-root --oversubscribe --bind-to none -x ASAN_OPTIONS -np 2 \
        "$bin" plan -q --csv --report "$out/rm.html" --trace "$out/tm.json" "$f" \
        > "$out/m.csv" 2> "$out/mpi2.err"
    rc=$?
    if [ $rc -eq 0 ] && cmp -s "$out/m.csv" "$out/o.csv" && cmp -s "$out/rm.html" "$out/r.html" &&
        cmp -s "$out/tm.json" "$out/t.json"; then
        echo "ok - plan --csv --report --trace under mpirun -np 2: byte-identical to one process"
    else
        echo "FAIL - plan --csv --report --trace under mpirun -np 2: status $rc or a file differs"
    fi
fi
rm -rf "$out/missing"
"$bin" plan -q --report "$out/missing/r.html" "$f" > /dev/null 2> "$out/miss.err"
rc=$?
if [ $rc -eq 2 ] && [ ! -e "$out/missing" ] && [ "$(wc -l < "$out/miss.err")" -eq 1 ]; then
    echo "ok - plan --report into a missing directory: status 2, one line, no file"
else
    echo "FAIL - plan --report into a missing directory: status $rc"
fi
got=$("$bin" plan -q "$f" --trace 2>&1 > /dev/null)
rc=$?
if [ $rc -eq 2 ] && [ "$got" = 'dtplan plan: --trace: expected a file name, found nothing' ]; then
    echo "ok - plan --trace without a file: status 2 and its error line"
else
    echo "FAIL - plan --trace without a file: got status $rc and \"$got\""
fi

# Rendered by a browser (the checks of tests/suite_html.sh).
tmp=$(mktemp -d "${TMPDIR:-/tmp}/dtplan-plan.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
html_tag="plan html"
. tests/html_check.sh
html_find_chrome
if [ -z "$CHROME" ]; then
    echo "skip - plan html: chromium not installed"
else
    art=$out/html
    mkdir -p "$art"
    cp "$H" "$art/report.html"
    html_render "file://$(cd "$art" && pwd)/report.html" "$art/report.dom.html" "$art/report.png"
    D="$art/report.dom.html"
    check "chromium dumps the rendered DOM" [ -s "$D" ]
    if [ -s "$D" ]; then
        check "the DOM has the four charts" [ "$(count '<svg id="chart-' "$D")" -eq 4 ]
        check "the DOM has a bar row per cluster" [ "$(count 'class="bar-row"' "$D")" -eq "$nhtml" ]
        check "the DOM has the recommendation" has 'id="recommendation"' "$D"
    fi
    check "chromium writes a screenshot (report.png, kept in the run's output directory)" [ -s "$art/report.png" ]
    if [ -s "$art/report.png" ]; then
        html_png_checks "$art/report.png"
    fi
fi

# The flags are parsed as dtplan's (cli/cliutil.c): --flag=VALUE, and the same error lines.
"$bin" plan -q --top=3 "$f" > "$out/top-eq.txt" 2>&1
"$bin" plan -q --top 3 "$f" > "$out/top-sp.txt" 2>&1
if cmp -s "$out/top-eq.txt" "$out/top-sp.txt" && grep -q '^Top 3 by ' "$out/top-eq.txt"; then
    echo "ok - plan --top=3 is --top 3"
else
    echo "FAIL - plan --top=3 differs from --top 3"
fi
for c in '--json=1|dtplan plan: --json: takes no value, found "1"' \
         '--seed=x|dtplan plan: --seed: expected a non-negative integer, found "x"' \
         '--frob|dtplan plan: unknown option "--frob" (try dtplan plan --help)' \
         '--catalog=|dtplan plan: --catalog: expected a directory, found ""'; do
    flag=${c%%|*}
    want=${c#*|}
    got=$("$bin" plan -q "$flag" "$f" 2>&1 > /dev/null)
    rc=$?
    if [ $rc -eq 2 ] && [ "$got" = "$want" ]; then
        echo "ok - plan $flag: status 2 and its error line"
    else
        echo "FAIL - plan $flag: got status $rc and \"$got\""
    fi
done

# No candidate meets the constraints: the CSV is its header, the trace and the report hold no
# cluster but say why.
f=tests/data/plan/budget.yaml
"$bin" plan -q --csv --report "$out/none.html" --trace "$out/none.json" "$f" > "$out/none.csv" 2>&1
rc=$?
if [ $rc -eq 0 ] && [ "$(wc -l < "$out/none.csv")" -eq 1 ] &&
    python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["traceEvents"]==[]' "$out/none.json" &&
    ! grep -q 'class="bar-row"' "$out/none.html" && grep -q 'No candidate meets the constraints' "$out/none.html"; then
    echo "ok - plan with no feasible candidate: CSV header only, an empty trace, the reason in the report"
else
    echo "FAIL - plan with no feasible candidate: status $rc"
fi

# The top N holds each cluster once (its best-ranked strategy), and nothing more than 10x
# worse than the best; --all keeps every strategy of a cluster.
f=scenarios/plan-resnet50-imagenet.yaml
"$bin" plan -q --csv "$f" > "$out/once.csv" 2>&1
"$bin" plan -q --csv --all "$f" > "$out/all.csv" 2>&1
all=$(tail -n +2 "$out/all.csv" | awk -F'"' '{print $2}' | sed 's/, [a-z_]*, [0-9]* MiB$//' | sort | uniq -d | wc -l)
groups_once=$(tail -n +2 "$out/once.csv" | awk -F'"' '{print $2}' | sed 's/, [a-z_]*, [0-9]* MiB$//' | sort | uniq -d | wc -l)
if [ "$groups_once" -eq 0 ] && [ "$all" -ge 1 ]; then
    echo "ok - plan top N: each cluster once ($(tail -n +2 "$out/once.csv" | wc -l | tr -d ' ') rows); --all keeps $all cluster(s) under several strategies"
else
    echo "FAIL - plan top N: $groups_once clusters repeated without --all, $all with it"
fi

# A measured step that the input pipeline alone explains (within measurement noise) bounds
# compute instead of failing: exit 0, the range [0, hi] in text and JSON, the prediction made
# with its middle; a step far below what the loader allows still fails with its reason.
f=tests/data/scenario_ok/loader_bound_solve.yaml
"$bin" -q "$f" > "$out/bound.txt" 2>&1
rc=$?
if [ $rc -eq 0 ] && grep -q "compute_s_per_step between 0 and .*not determined" "$out/bound.txt"; then
    echo "ok - solve: a loader-bound measured step bounds compute ($(grep -o 'between 0 and [0-9.e-]*' "$out/bound.txt"))"
else
    echo "FAIL - solve: loader-bound measured step: status $rc: $(head -3 "$out/bound.txt" | tail -1)"
fi
"$bin" -q --json "$f" > "$out/bound.json" 2>&1
if python3 -c '
import json, sys
s = json.load(open(sys.argv[1]))["solved"]
lo, hi = s["range"]
sys.exit(0 if lo == 0 and hi > 0 and abs(s["value"] - hi / 2) <= 1e-6 * hi else 1)' "$out/bound.json"; then
    echo "ok - solve: JSON solved.range is [0, hi] and solved.value its middle"
else
    echo "FAIL - solve: JSON solved: $(grep -o '"solved":{[^}]*}' "$out/bound.json")"
fi
sed 's/step_s: 0.0183/step_s: 0.0150/' "$f" > "$out/too-fast.yaml"
"$bin" -q "$out/too-fast.yaml" > /dev/null 2> "$out/too-fast.err"
rc=$?
if [ $rc -eq 1 ] && [ "$(wc -l < "$out/too-fast.err")" -eq 1 ] &&
   grep -q "18% below what the cluster takes with no compute.*more than measurement noise" "$out/too-fast.err"; then
    echo "ok - solve: a step 18% below the loader's floor is refused in one line, with status 1"
else
    echo "FAIL - solve: too fast a step: status $rc: $(cat "$out/too-fast.err")"
fi

# plan.spot with a goodput: section: each candidate on demand and at spot
# prices; the spot one pays for its preemptions, so a 20% discount wins at
# 0.2 preemptions a node a day and loses at 12 with half-hour restarts.
spot_rank() { # FILE: the recommended cluster, then "name ettr" of each of the top
    "$bin" plan -q --json "$1" 2> /dev/null | perl -MJSON::PP -e '
        local $/; my $d = decode_json(<STDIN>);
        print $d->{recommendation}{cluster}, "\n";
        printf "%s %.3f\n", $_->{name}, $_->{goodput}{ettr} for @{$d->{top}}'
}
f=tests/data/plan/spot-goodput.yaml
spot_rank "$f" > "$out/spot-low.txt"
sed 's/spot_preemptions_per_day: 0.2/spot_preemptions_per_day: 12/' "$f" > "$out/spot-high.yaml"
spot_rank "$out/spot-high.yaml" > "$out/spot-high.txt"
if [ "$(sed 1d "$out/spot-low.txt" | grep -c ' spot ')" = 2 ] &&
   [ "$(sed 1d "$out/spot-low.txt" | grep -c -v ' spot ')" = 2 ] &&
   head -1 "$out/spot-low.txt" | grep -q ' spot$'; then
    echo "ok - spot: each candidate searched on demand and at spot; 0.2 preemptions a day: spot recommended ($(head -1 "$out/spot-low.txt"))"
else
    echo "FAIL - spot: 0.2 preemptions a day: $(tr '\n' ';' < "$out/spot-low.txt")"
fi
if head -1 "$out/spot-high.txt" | grep -qv ' spot$' &&
   awk '/ spot / && $NF < 0.8 { n++ } END { exit n == 2 ? 0 : 1 }' "$out/spot-high.txt"; then
    echo "ok - spot: 12 preemptions a day cost more than the 20% discount: on demand recommended ($(head -1 "$out/spot-high.txt"))"
else
    echo "FAIL - spot: 12 preemptions a day: $(tr '\n' ';' < "$out/spot-high.txt")"
fi
# Without goodput.spot_preemptions_per_day a spot node takes its type's
# interruption band (catalog spot_interrupt: the middle of a closed band over
# 30 days), else the open top band's 0.2 / 30.
spot_rate() { # FILE: each spot candidate's spot_preemptions_per_day
    "$bin" plan -q --json "$1" 2> /dev/null | perl -MJSON::PP -e '
        local $/; my $d = decode_json(<STDIN>);
        printf "%.6g %s\n", $_->{goodput}{spot_preemptions_per_day}, $_->{goodput}{spot_rate_from}
            for grep { $_->{name} =~ / spot$/ } @{$d->{top}}'
}
sed 's/spot_preemptions_per_day: 0.2, //' "$f" > "$out/spot-default.yaml"
sed 's/spot_usd_h: 8.0,/spot_usd_h: 8.0, spot_interrupt: "5-10%",/' "$out/spot-default.yaml" \
    > "$out/spot-band.yaml"
r_key=$(spot_rate "$f" | sort -u | tr '\n' ' ')
r_default=$(spot_rate "$out/spot-default.yaml" | sort -u | tr '\n' ' ')
r_band=$(spot_rate "$out/spot-band.yaml" | sort -u | tr '\n' ' ')
if [ "$r_key" = "0.2 scenario " ] && [ "$r_default" = "0.00666667 default " ] &&
   [ "$r_band" = "0.0025 band " ]; then
    echo "ok - spot: the scenario's rate (0.2), else the type's band (5-10%: 0.0025 a day), else 0.2 / 30"
else
    echo "FAIL - spot: rates: key [$r_key], no band [$r_default], 5-10% band [$r_band]"
fi
"$bin" plan -q "$out/spot-band.yaml" > "$out/spot-band.txt" 2>&1
if grep -q "^Recommendation: .*its spot nodes preempted 0.0025 times a day each (spotgpu.8x's Spot Instance Advisor band, 5-10% of capacity a month)" "$out/spot-band.txt"; then
    echo "ok - spot: the recommendation says a spot node's rate and where it comes from"
else
    echo "FAIL - spot: no rate and basis in: $(grep '^Recommendation' "$out/spot-band.txt")"
fi
