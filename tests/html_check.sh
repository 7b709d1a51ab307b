# html_check.sh - shell helpers shared by the suites that check an HTML
# report (tests/suite_html.sh, tests/suite_plan.sh, tests/suite_html_llm.sh);
# sourced, not run.
# Before sourcing set html_tag (the word after "ok - ", e.g. "html") and tmp
# (a scratch directory the caller removes).
#
#   check DESC CMD...     "ok - TAG: DESC" when CMD succeeds, else "FAIL - ..."
#   has TEXT FILE         FILE holds TEXT;  count TEXT FILE: how many times
#   html_find_chrome      sets CHROME to Debian's chromium, or "" when missing
#   html_render URL DOM PNG
#                         headless render: the DOM to DOM, a 1100 x 2600
#                         screenshot to PNG (each left out when it fails);
#                         HTML_WINDOW=W,H for another window
#   html_render_dom URL DOM, html_render_png URL PNG: one of the two
#   html_render_both URL DOM PNG
#                         the two from one start of the browser (a second
#                         start for the PNG where that leaves it out)
#   html_png_checks PNG   the screenshot decodes at 1100 x 2600, is not blank,
#                         and shows the compute bars (#4e79a7) and the
#                         communication bars and Pareto front (#e15759)
ok() { echo "ok - $html_tag: $1"; }
fail() { echo "FAIL - $html_tag: $1"; }
check() { d=$1; shift; if "$@"; then ok "$d"; else fail "$d"; fi; }
has() { grep -q -- "$1" "$2"; }
count() { grep -o -- "$1" "$2" | wc -l | tr -d ' '; }

html_find_chrome() {
    CHROME=""
    for c in chromium chromium-browser; do
        if command -v "$c" > /dev/null 2>&1; then CHROME=$c; break; fi
    done
}

# A fresh profile each time; no sandbox (root in CI); no GPU.
run_chrome() {
    prof=$(mktemp -d "$tmp/profile.XXXXXX")
    timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage \
        --no-first-run --user-data-dir="$prof" --hide-scrollbars --window-size="${HTML_WINDOW:-1100,2600}" "$@"
}

html_render_dom() {
    rm -f "$2"
    run_chrome --dump-dom "$1" > "$2" 2> "$tmp/chrome-dom.log"
    [ -s "$2" ] || rm -f "$2"
}

html_render_png() {
    rm -f "$2" "$tmp/shot.png"
    (cd "$tmp" && run_chrome --screenshot="$tmp/shot.png" "$1") > "$tmp/chrome-shot.log" 2>&1
    [ -s "$tmp/shot.png" ] && cp "$tmp/shot.png" "$2"
}

html_render_both() {
    rm -f "$2" "$3" "$tmp/shot.png"
    (cd "$tmp" && run_chrome --dump-dom --screenshot="$tmp/shot.png" "$1") > "$2" 2> "$tmp/chrome-dom.log"
    [ -s "$2" ] || rm -f "$2"
    if [ -s "$tmp/shot.png" ]; then cp "$tmp/shot.png" "$3"; else html_render_png "$1" "$3"; fi
}

html_render() {
    html_render_dom "$1" "$2"
    html_render_png "$1" "$3"
}

html_png_checks() {
    # Bar fill colours: compute #4e79a7, exposed communication #e15759
    # (also the Pareto front).
    png=$(perl tests/png_check.pl "$1" 4e79a7 e15759 2> "$tmp/png.err")
    echo "# $png"
    w=$(echo "$png" | sed -n 's/.*w=\([0-9]*\).*/\1/p')
    h=$(echo "$png" | sed -n 's/.* h=\([0-9]*\).*/\1/p')
    colours=$(echo "$png" | sed -n 's/.*colours=\([0-9]*\).*/\1/p')
    nonwhite=$(echo "$png" | sed -n 's/.*nonwhite=0\.\([0-9]*\).*/\1/p')
    blue=$(echo "$png" | sed -n 's/.*4e79a7=\([0-9]*\).*/\1/p')
    red=$(echo "$png" | sed -n 's/.*e15759=\([0-9]*\).*/\1/p')
    check "the PNG decodes, 1100 x 2600" [ "${w:-0}" -eq 1100 -a "${h:-0}" -eq 2600 ]
    check "the PNG is not blank: many colours (${colours:-0})" [ "${colours:-0}" -ge 50 ]
    check "the PNG is not blank: over 3% of the pixels are not white (0.${nonwhite:-0})" \
        [ "${nonwhite:-0}" -ge 0300 ]
    check "the compute bars are drawn (${blue:-0} pixels of #4e79a7)" [ "${blue:-0}" -ge 5000 ]
    check "communication bars and the Pareto front are drawn (${red:-0} pixels of #e15759)" \
        [ "${red:-0}" -ge 300 ]
}
