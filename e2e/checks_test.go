package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The checks below read the page through the DOM contract of report.html:
//
//   - nav#toc holds <a href="#..."> links to every section[id^="sec-"];
//   - a figure is figure.fig#fig-<id> with a div.fig-static holding an
//     inline <svg>, and a <figcaption>; an interactive one has
//     data-chart="pb_<id>" and gets data-ready="true" once its chart is
//     initialised (after it scrolled into view);
//   - select#system-select switches the per-system blocks
//     details.sys[data-system] of every section, the primary system's open;
//     baseline blocks (details.sys.base) are not switched;
//   - tables are <table> elements inside div.table-wrap.
//
// Each check returns its findings, one line each, so that the harness test
// can assert that a broken page is caught.

// chartWait is how long one chart of a report may take to initialise
// after it scrolled into view. The check waits only as long as a chart is
// not ready, so the bound costs time only when a chart never initialises.
const chartWait = 10 * time.Second

// chartsJS selects each system in turn (a change event on the select),
// scrolls every interactive figure of that system (and the figures outside
// the per-system blocks) into view and waits for data-ready="true".
const chartsJS = `(async (waitMS) => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const sel = document.getElementById('system-select');
  const systems = sel ? Array.from(sel.options, o => o.value) : [];
  const all = Array.from(document.querySelectorAll('figure[data-chart]'));
  const bySystem = new Map([['', []]]);
  for (const f of all) {
    const block = f.closest('details.sys');
    const key = block ? block.dataset.system : '';
    if (!bySystem.has(key)) bySystem.set(key, []);
    bySystem.get(key).push(f);
  }
  const failures = [];
  let checked = 0;
  const visit = async (label, figs) => {
    for (const f of figs) {
      f.scrollIntoView({block: 'center'});
      const t0 = performance.now();
      while (f.dataset.ready !== 'true' && performance.now() - t0 < waitMS) await sleep(20);
      checked++;
      const r = f.getBoundingClientRect();
      if (f.dataset.ready !== 'true') {
        failures.push(label + '#' + f.id + ' (' + f.dataset.chart + ') not initialised ' + waitMS + ' ms after it scrolled into view');
      } else if (!(r.width > 0 && r.height > 0)) {
        failures.push(label + '#' + f.id + ' initialised with an empty box');
      } else if (!document.getElementById('opt-' + f.dataset.chart)) {
        failures.push(label + '#' + f.id + ' has no option script #opt-' + f.dataset.chart);
      }
    }
  };
  await visit('', bySystem.get(''));
  for (const s of systems) {
    sel.value = s;
    sel.dispatchEvent(new Event('change', {bubbles: true}));
    await sleep(50);
    await visit('system ' + JSON.stringify(s) + ': ', bySystem.get(s) || []);
  }
  // Blocks the selector does not switch (if any) are opened the way a
  // reader opens them, as a click on their summary does.
  let unswitched = 0;
  for (const [s, figs] of bySystem) {
    if (s === '' || systems.includes(s)) continue;
    unswitched++;
    for (const d of document.querySelectorAll('details.sys')) if (d.dataset.system === s) d.open = true;
    await visit('block ' + JSON.stringify(s) + ' (not in the selector): ', figs);
  }
  if (sel && systems.length) {
    sel.value = systems[0];
    sel.dispatchEvent(new Event('change', {bubbles: true}));
  }
  window.scrollTo(0, 0);
  return {charts: all.length, checked, systems: systems.length, unswitched, failures};
})(` + "%d" + `)`

// checkCharts initialises every chart, giving each up to wait after it
// scrolled into view, and returns the failures.
func checkCharts(tb *tab, wait time.Duration) []string {
	tb.t.Helper()
	res := eval[struct {
		Charts, Checked, Systems, Unswitched int
		Failures                             []string
	}](tb, fmt.Sprintf(chartsJS, wait.Milliseconds()))
	tb.t.Logf("charts: %d interactive figures, %d checked over %d systems of the selector and %d other per-system blocks",
		res.Charts, res.Checked, res.Systems, res.Unswitched)
	if res.Charts == 0 {
		tb.t.Log("no figure has data-chart: echarts is not embedded (run `make echarts`), the page shows static figures only")
	}
	return res.Failures
}

// tocJS checks that every link of the table of contents has its target,
// that every section is linked, and that no id is used twice.
const tocJS = `(() => {
  const problems = [];
  const nav = document.querySelector('nav#toc');
  if (!nav) return {links: 0, sections: 0, problems: ['no nav#toc']};
  const links = Array.from(nav.querySelectorAll('a[href]'));
  const linked = new Set();
  for (const a of links) {
    const h = a.getAttribute('href');
    if (!h.startsWith('#')) { problems.push('toc link ' + JSON.stringify(h) + ' is not an in-page anchor'); continue; }
    let id = h.slice(1);
    try { id = decodeURIComponent(id); } catch (e) {}
    linked.add(id);
    if (!document.getElementById(id)) problems.push('toc link ' + JSON.stringify(h) + ' (' + JSON.stringify(a.textContent.trim()) + ') has no target');
  }
  const sections = document.querySelectorAll('section[id^="sec-"]');
  for (const s of sections) {
    if (!linked.has(s.id)) problems.push('section#' + s.id + ' is not linked from the table of contents');
    if (!s.querySelector('h2')) problems.push('section#' + s.id + ' has no h2');
  }
  if (links.length === 0) problems.push('nav#toc has no links');
  const seen = new Map();
  for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) || 0) + 1);
  for (const [id, n] of seen) if (n > 1) problems.push('id ' + JSON.stringify(id) + ' is used ' + n + ' times');
  return {links: links.length, sections: sections.length, problems: problems.slice(0, 40)};
})()`

// checkTOC returns the broken anchors of the table of contents.
func checkTOC(tb *tab) []string {
	tb.t.Helper()
	res := eval[struct {
		Links, Sections int
		Problems        []string
	}](tb, tocJS)
	tb.t.Logf("table of contents: %d links, %d sections", res.Links, res.Sections)
	return res.Problems
}

// widthJS returns the document's scroll width and, when it is wider than
// the limit, the outermost elements that stick out (not counting those
// inside a box that scrolls or clips, such as div.table-wrap).
const widthJS = `((limit) => {
  const de = document.documentElement;
  const res = {scrollWidth: de.scrollWidth, innerWidth: window.innerWidth, offenders: []};
  if (de.scrollWidth <= limit) return res;
  const clipped = el => {
    for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
      if (getComputedStyle(p).overflowX !== 'visible') return true;
    }
    return false;
  };
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
    (typeof el.className === 'string' && el.className.trim() ? '.' + el.className.trim().split(/\s+/).join('.') : '');
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.right <= limit + 0.5 || r.width === 0) continue;
    const p = el.parentElement;
    if (p && p !== document.body && p.getBoundingClientRect().right > limit + 0.5) continue;
    if (clipped(el)) continue;
    const sec = el.closest('section[id]');
    res.offenders.push(name(el) + (sec ? ' in section#' + sec.id : '') + ': right edge at ' + Math.round(r.right) + ' px, width ' + Math.round(r.width) + ' px');
    if (res.offenders.length >= 12) break;
  }
  return res;
})(` + "%d" + `)`

// checkWidth returns a finding when the page is wider than limit CSS
// pixels, with the elements that stick out.
func checkWidth(tb *tab, limit int) []string {
	tb.t.Helper()
	res := eval[struct {
		ScrollWidth, InnerWidth int
		Offenders               []string
	}](tb, fmt.Sprintf(widthJS, limit))
	tb.t.Logf("width: scrollWidth %d px at window.innerWidth %d px (limit %d)", res.ScrollWidth, res.InnerWidth, limit)
	if res.ScrollWidth <= limit {
		return nil
	}
	out := []string{fmt.Sprintf("document.documentElement.scrollWidth is %d px, wider than %d px", res.ScrollWidth, limit)}
	for _, o := range res.Offenders {
		out = append(out, "  sticks out: "+o)
	}
	return out
}

// axeFile is the axe-core script fetched by `make axe`.
func axeScript(t *testing.T) string {
	t.Helper()
	root, err := repoRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "e2e", "assets", "axe.min.js"))
	if errors.Is(err, fs.ErrNotExist) {
		t.Skip("axe-core is not fetched: run `make axe` (npm pack axe-core, sha256 checked) to run the axe-core checks")
	}
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(root, "e2e", "axe.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != strings.TrimSpace(string(want)) {
		t.Fatalf("e2e/assets/axe.min.js has sha256 %s, e2e/axe.sha256 says %s: run `make axe` again", got, strings.TrimSpace(string(want)))
	}
	return string(b)
}

// axeRunJS runs axe-core on the whole document and returns its violations
// with the first few target selectors of each.
const axeRunJS = `(async () => {
  const r = await axe.run(document, {resultTypes: ['violations']});
  return {version: axe.version, violations: r.violations.map(v => ({
    id: v.id, impact: v.impact || '', help: v.help, helpUrl: v.helpUrl, count: v.nodes.length,
    nodes: v.nodes.slice(0, 5).map(n => {
      let where = '';
      try {
        const el = document.querySelector(String(n.target[n.target.length - 1]));
        const sec = el && el.closest('section[id]');
        if (sec) where = ' in section#' + sec.id;
      } catch (e) {}
      return {target: n.target.map(String).join(' >>> ') + where, html: (n.html || '').slice(0, 160), summary: n.failureSummary || ''};
    }),
  }))};
})()`

type axeViolation struct {
	ID, Impact, Help, HelpURL string
	Count                     int
	Nodes                     []struct{ Target, HTML, Summary string }
}

// runAxe injects axe-core (given as its source) into the page and returns
// the serious and critical violations; the others are logged.
func runAxe(tb *tab, script string) []string {
	tb.t.Helper()
	if err := chromedp.Do(tb.ctx, chromedp.Evaluate[chromedp.Void](script)); err != nil {
		tb.t.Fatalf("injecting axe-core: %v", err)
	}
	res := eval[struct {
		Version    string
		Violations []axeViolation
	}](tb, axeRunJS)
	var out []string
	for _, v := range res.Violations {
		lines := []string{fmt.Sprintf("axe %s [%s] %s: %d element(s) (%s)", v.ID, v.Impact, v.Help, v.Count, v.HelpURL)}
		for _, n := range v.Nodes {
			lines = append(lines, "    "+n.Target+"  "+n.HTML)
			if n.Summary != "" {
				lines = append(lines, "      "+strings.ReplaceAll(n.Summary, "\n", "\n      "))
			}
		}
		if v.Impact == "serious" || v.Impact == "critical" {
			out = append(out, strings.Join(lines, "\n"))
		} else {
			tb.t.Logf("axe finding below serious (not a failure):\n%s", strings.Join(lines, "\n"))
		}
	}
	tb.t.Logf("axe-core %s: %d rule(s) violated, %d serious or critical", res.Version, len(res.Violations), len(out))
	return out
}

// noScriptJS describes, in a page whose scripts are disabled, which
// per-system blocks are open and which tables and static figures have an
// empty box. It runs through the DevTools protocol, which still evaluates
// when the page's own scripts cannot run.
const noScriptJS = `(() => {
  const name = el => {
    const fig = el.closest('figure');
    const sec = el.closest('section[id]');
    const sys = el.closest('details.sys');
    return el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (fig ? ' in figure#' + fig.id : '') +
      (sys ? ' in details.sys[data-system=' + JSON.stringify(sys.dataset.system) + ']' : '') +
      (sec ? ' in section#' + sec.id : '');
  };
  const visible = el => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
  };
  const sel = document.getElementById('system-select');
  const opt = sel && (sel.querySelector('option[selected]') || sel.options[0]);
  const first = document.querySelector('details.sys:not(.base)');
  const primary = opt ? opt.value : (first ? first.dataset.system : '');
  const blocks = Array.from(document.querySelectorAll('details.sys'), d => ({
    system: d.dataset.system, open: d.open, base: d.classList.contains('base'),
    section: (d.closest('section[id]') || {}).id || ''}));
  const tables = Array.from(document.querySelectorAll('table'));
  const statics = Array.from(document.querySelectorAll('figure.fig .fig-static'));
  const svgs = statics.map(s => s.querySelector('svg')).filter(Boolean);
  const hidden = [...tables, ...statics, ...svgs].filter(el => !visible(el)).map(name);
  const noSVG = statics.filter(s => !s.querySelector('svg')).map(s => name(s) + ' has no inline svg');
  const figs = document.querySelectorAll('figure.fig').length;
  return {primary, blocks, tables: tables.length, figures: figs, statics: statics.length, hidden: hidden.slice(0, 40), hiddenCount: hidden.length, noSVG};
})()`

type noScriptState struct {
	Primary string
	Blocks  []struct {
		System, Section string
		Open, Base      bool
	}
	Tables, Figures, Statics int
	Hidden                   []string
	HiddenCount              int
	NoSVG                    []string
}

// closed counts the closed per-system blocks.
func (s noScriptState) closed() int {
	n := 0
	for _, b := range s.Blocks {
		if !b.Open {
			n++
		}
	}
	return n
}

// checkNoScript checks a page loaded with scripts disabled. Without
// scripts, in every section the primary system's block (the option selected
// in the hidden selector, else the first block) must be the open one and
// the other systems' blocks closed; the baseline blocks (details.sys.base,
// which the selector does not switch) may be open. The check then opens the
// closed blocks the way a reader does, by clicking their <summary> (native
// <details> needs no script), and asserts that every table and every static
// figure has a visible, non-empty box.
func checkNoScript(tb *tab) []string {
	tb.t.Helper()
	var out []string
	// Evidence that the page's scripts did not run: no chart initialised,
	// no echarts global.
	if ran := eval[bool](tb, `document.querySelector('figure[data-ready]') !== null || typeof window.echarts !== 'undefined'`); ran {
		out = append(out, "the page's scripts ran although script execution is disabled")
	}
	before := eval[noScriptState](tb, noScriptJS)
	for _, b := range before.Blocks {
		if b.Base {
			continue
		}
		if want := b.System == before.Primary; b.Open != want {
			out = append(out, fmt.Sprintf("without scripts, details.sys[data-system=%q] in section#%s is open=%v, want only the primary system %q open",
				b.System, b.Section, b.Open, before.Primary))
		}
	}
	// Closed detail (per-system blocks, long tables, METHODS.md) opens
	// with a click on its summary; nested detail needs a second round.
	var summaries []*chromedp.Node
	for round := 0; round < 4; round++ {
		nodes, err := chromedp.Run(tb.ctx, chromedp.Nodes(chromedp.CSSAll("details:not([open]) > summary"), chromedp.AtLeast(0)))
		if err != nil {
			tb.t.Fatalf("finding the closed blocks: %v", err)
		}
		clicked := 0
		for _, n := range nodes {
			if err := chromedp.Do(tb.ctx, chromedp.MouseClickNode(n)); err != nil {
				continue // inside a closed parent: the next round opens it
			}
			clicked++
			summaries = append(summaries, n)
		}
		if clicked == 0 {
			break
		}
	}
	after := eval[noScriptState](tb, noScriptJS)
	if n := after.closed(); n > 0 {
		out = append(out, fmt.Sprintf("%d details.sys still closed after a click on their summary", n))
	}
	if n := eval[int](tb, `document.querySelectorAll('details:not([open])').length`); n > 0 {
		out = append(out, fmt.Sprintf("%d <details> still closed after a click on their summary", n))
	}
	tb.t.Logf("without scripts: primary system %q, %d per-system blocks (%d details opened by clicking their summary), %d tables, %d figures, %d static figures",
		after.Primary, len(after.Blocks), len(summaries), after.Tables, after.Figures, after.Statics)
	if after.Tables == 0 {
		out = append(out, "no <table> in the page")
	}
	if after.Statics == 0 {
		out = append(out, "no figure.fig .fig-static in the page")
	}
	if after.Statics < after.Figures {
		out = append(out, fmt.Sprintf("%d figure.fig but only %d have a div.fig-static", after.Figures, after.Statics))
	}
	out = append(out, after.NoSVG...)
	for _, h := range after.Hidden {
		out = append(out, "not visible without scripts: "+h)
	}
	if after.HiddenCount > len(after.Hidden) {
		out = append(out, fmt.Sprintf("… and %d more not visible", after.HiddenCount-len(after.Hidden)))
	}
	return out
}

// reportFindings fails the test once per finding, under a heading.
func reportFindings(t *testing.T, what string, findings []string) {
	t.Helper()
	for _, f := range findings {
		t.Errorf("%s: %s", what, f)
	}
}
