#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# report.t - scripts/lj-report writes one self-contained HTML page from fixture run sets
# (tables with significance and gate verdicts, identity differences, validity verdicts,
# explanations, inline SVG figures), and headless Chromium renders it to a screenshot
# without console errors, with the tables and figures in the DOM.
. "$(dirname "$0")/lib.sh"

command -v jq >/dev/null || skip_all "jq not installed"
plan 16
REPORT="$LJ_SRC/scripts/lj-report"
FIXC="$LJ_SRC/tests/fixtures/compare"

# The base set with one suspect run and one run with an explanation.
cp -r "$FIXC/base" "$TMP/base"
r1="$TMP/base/cyclic/cgroup=off/run-1.json"
jq '.validity = {verdict: "suspect", reasons: [{level: "suspect", what: "load", text: "CPU 0 42% busy with other work"}]}
	| .side.explain = {lost_events: 0, explanations: [{kind: "spike", cpu: 0, latency_ns: 1929000, state: "waiting for CPU",
		causes: [{kind: "irq", name: "virtio1-req.0", ns: 1900000}, {kind: "unaccounted", name: "no events", ns: 29000}]}]}
	| .params.perfetto = "/srv/runs/run-1.trace.json"' \
	"$r1" >"$r1.new" && mv "$r1.new" "$r1"

run_rc "$REPORT" -o "$TMP/report.html" --fail-on 'cyclic.mean>+5%' "$TMP/base" "$FIXC/shifted" "$FIXC/bimodal"
is "$rc:$(cat "$TMP/out")" "0:$TMP/report.html" "lj-report writes the page and prints its path"
P="$TMP/report.html"

# Self-contained: no script, no stylesheet or image to fetch; the only links are inside the page.
is "$(grep -ciE '<script|<link|<img|<iframe|@import' "$P")" 0 "no script, link, image or import"
is "$(grep -oE "(src|href)=['\"][^'\"]*" "$P" | grep -cv "=['\"]#")" 0 "every src/href is a fragment inside the page"
shift_want=$(lj-compare --format json --fail-on 'cyclic.mean>+5%' "$TMP/base" "$FIXC/shifted" 2>/dev/null |
	jq -r '.rows[] | select(.metric == "mean") | .sets[1].shift_ratio' | awk '{ printf "x%.3f", $1 }')
grep -q "sig worse\">$shift_want</span>" "$P"
ok $? "the mean's significant shift ($shift_want, from lj-compare's JSON) is marked worse"
grep -q "cyclic.mean&gt;+5%</td><td>1</td><td>1</td><td>0</td><td><span class=\"badge fail\">fail</span>" "$P"
ok $? "the gate table: the rule failed on one row"
is "$(grep -c '<table' "$P")" 7 "tables: sets, gate, comparison, identity diff, full identity, validity, explained spikes"
grep -q '<td class=l>kernel.release</td><td class=l>6.1.0</td><td class=l>6.18.0</td>' "$P"
ok $? "the identity fields that differ, per set"
grep -q 'load: CPU 0 42% busy with other work' "$P"
ok $? "a suspect run's verdict and reason"
grep -q '<td class=l>spike</td><td>0</td><td>1929</td><td class=l>waiting for CPU</td><td class=l>virtio1-req.0 1900 us; no events 29.0 us</td>' "$P"
ok $? "the explanation of a run that has one (side.explain), its causes in us"
grep -q '^<li>[^<]*run-1.json: <code>/srv/runs/run-1.trace.json</code></li>$' "$P"
ok $? "the run's --perfetto trace is named (params.perfetto), as text, not a link"
if command -v gnuplot >/dev/null; then
	is "$(grep -c '<svg' "$P")" 3 "figures inline as SVG: the histogram, box plots of max and mean"
else
	skip 1 "gnuplot not installed"
fi
run_rc "$REPORT" -o "$TMP/x.html" "$TMP/nosuch"
is "$rc" 2 "a missing run directory is bad input"

# Headless Chromium: a screenshot, no console message, the tables and figures in the DOM.
chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome)
if [ -z "$chrome" ]; then
	skip 4 "chromium not installed (scripts/deps --browser --install)"
	exit $((_tap_fail > 0))
fi
# render PAGE PNG: screenshot, DOM in PNG.dom, Chromium's log in PNG.log
render() {
	rm -rf "$TMP/profile"
	HOME=$TMP timeout 180 "$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$TMP/profile" \
		--enable-logging=stderr --v=0 --hide-scrollbars --window-size=1280,3000 \
		--screenshot="$2" "file://$1" >/dev/null 2>"$2.log"
	HOME=$TMP timeout 180 "$chrome" --headless --no-sandbox --disable-gpu --disable-background-networking \
		--disable-component-update --disable-sync --no-first-run --user-data-dir="$TMP/profile" \
		--dump-dom "file://$1" >"$2.dom" 2>/dev/null
}
render "$P" "$TMP/report.png"
is "$(head -c 8 "$TMP/report.png" | od -An -tx1 | tr -d ' \n')" 89504e470d0a1a0a "Chromium renders the page to a PNG screenshot"
is "$(grep -c 'CONSOLE' "$TMP/report.png.log")" 0 "no console message while loading"
grep 'CONSOLE' "$TMP/report.png.log" | head -3 | sed 's/^/# /'
is "$(grep -o '<table' "$TMP/report.png.dom" | wc -l):$(grep -o '<svg' "$TMP/report.png.dom" | wc -l | awk '{ print ($1 > 0) }')" \
	"7:1" "the rendered DOM has the tables and the figures"
# The check can fail: a page that logs an error is caught.
printf '<!DOCTYPE html><html><body><script>console.error("report-test-marker")</script></body></html>\n' >"$TMP/bad.html"
render "$TMP/bad.html" "$TMP/bad.png"
grep -q 'CONSOLE.*report-test-marker' "$TMP/bad.png.log"
ok $? "a console error would be caught (negative control)"
exit $((_tap_fail > 0))
