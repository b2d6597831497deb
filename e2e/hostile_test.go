package e2e

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	hostile_ "paperbundle/internal/hostile"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// hostileStrings reads the shared corpus testdata/hostile.txt
// (docs/reliability.md "Hostile strings"):
// one string a line, "# " lines are comments, `\t` stands for a tab.
func hostileStrings(t *testing.T) []string {
	return hostile_.Strings(t)
}

// writeHostileProject writes, into dir, a small per-query project whose
// title, system labels and criterion ids are the hostile strings (query ids
// are then "P1/<criterion>", so they carry them too). Four posts, each
// criterion on each post, two folds with eval and tune rows, candidates
// with scores and node probabilities, ne_prob. Returns paper.yaml.
func writeHostileProject(t *testing.T, dir, title string, labels, criteria []string) string {
	t.Helper()
	posts := []string{"P1", "P2", "P3", "P4"}
	evalFold := map[string]int{"P1": 0, "P2": 0, "P3": 1, "P4": 1}
	cands := []string{"u1", "u2", "u3", "u4", "u5"}
	var cfg strings.Builder
	fmt.Fprintf(&cfg, "title: %s\nbootstrap: {resamples: 50}\nsystems:\n", yamlString(title))
	for s, label := range labels {
		name := fmt.Sprintf("s%02d", s+1)
		input := name + ".csv"
		fmt.Fprintf(&cfg, "  - {name: %s, label: %s, input: %s}\n", name, yamlString(label), input)

		rng := rand.New(rand.NewPCG(uint64(s+1), 7))
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		w.Write([]string{"post_id", "criterion_id", "fold", "split", "gold_uids", "candidate_uids", "candidate_scores", "node_probs", "ne_prob"})
		for fold := range 2 {
			for pi, p := range posts {
				split := "tune"
				if evalFold[p] == fold {
					split = "eval"
				}
				for ci, c := range criteria {
					// The gold and the rows are the same for every system;
					// only the scores depend on the system's generator.
					positive := (pi+ci)%3 != 0
					gold := ""
					if positive {
						gold = cands[(pi+ci)%len(cands)]
					}
					scores := make([]string, len(cands))
					probs := make([]string, len(cands))
					for k, u := range cands {
						v := rng.Float64()
						if u == gold {
							v = min(1, v+0.3)
						}
						scores[k] = fmt.Sprintf("%.3f", v)
						probs[k] = fmt.Sprintf("%.3f", v*0.9)
					}
					ne := 0.05 + 0.5*rng.Float64()
					if positive {
						ne = 0.45 + 0.5*rng.Float64()
					}
					w.Write([]string{p, c, fmt.Sprint(fold), split, gold, strings.Join(cands, ";"),
						strings.Join(scores, ";"), strings.Join(probs, ";"), fmt.Sprintf("%.3f", ne)})
				}
			}
		}
		w.Flush()
		if err := os.WriteFile(filepath.Join(dir, input), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfgPath := filepath.Join(dir, "paper.yaml")
	if err := os.WriteFile(cfgPath, []byte(cfg.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return cfgPath
}

// yamlString quotes s as a YAML double-quoted scalar (a JSON string is one).
func yamlString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// normSpace collapses every run of white space to one space and trims,
// as rendering and innerText do with a tab in normal text.
func normSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// domFactsJS returns what the hostile test checks of the page's markup:
// its on* attributes, injected elements and scripts. When its argument is
// true it first reads the page as a reader would: it opens every
// per-system block (the selector first, then every <details>), shows the
// tooltip of every echarts instance (echarts writes tooltips as HTML,
// where an unescaped label would become markup), and returns the text it
// saw; reading is what costs on a large page.
const domFactsJS = `(async (read) => {
  const sleep = ms => new Promise(r => setTimeout(r, ms));
  const texts = [];
  let tooltips = 0;
  if (read) {
    texts.push(document.body.innerText);
    const sel = document.getElementById('system-select');
    if (sel) for (const o of sel.options) {
      sel.value = o.value;
      sel.dispatchEvent(new Event('change', {bubbles: true}));
      await sleep(20);
      texts.push(document.body.innerText);
    }
    for (const d of document.querySelectorAll('details')) d.open = true;
    texts.push(document.body.innerText);
    if (window.echarts) {
      for (const el of document.querySelectorAll('[_echarts_instance_]')) {
        const chart = echarts.getInstanceByDom(el);
        if (!chart) continue;
        const n = (chart.getOption().series || []).length;
        for (let s = 0; s < n; s++) {
          try { chart.dispatchAction({type: 'showTip', seriesIndex: s, dataIndex: 0}); tooltips++; } catch (e) {}
        }
        texts.push(el.innerText || '');
      }
      await sleep(100);
    }
  }
  const onAttrs = new Set();
  const injected = [];
  for (const el of document.querySelectorAll('*')) {
    for (const a of el.attributes) {
      const n = a.name.toLowerCase();
      if (n.startsWith('on')) onAttrs.add(el.tagName.toLowerCase() + '[' + n + ']');
      if ((n === 'src' || n === 'href' || n.endsWith(':href') || n === 'action') && (a.value === 'x' || a.value.includes('example.invalid'))) {
        injected.push(el.tagName.toLowerCase() + '[' + n + '=' + JSON.stringify(a.value) + ']');
      }
    }
    if (el.tagName === 'B' && el.textContent === 'bold') injected.push('<b>bold</b> rendered as markup');
  }
  const scripts = {classic: 0, json: 0, badJSON: []};
  for (const s of document.scripts) {
    if (s.type === 'application/json') {
      scripts.json++;
      try { JSON.parse(s.textContent); } catch (e) { scripts.badJSON.push('#' + s.id + ': ' + e.message); }
    } else {
      scripts.classic++;
    }
  }
  return {title: document.title, text: texts.join('\n'), tooltips, onAttrs: [...onAttrs].sort(), injected, scripts};
})`

// readDOMFacts evaluates domFactsJS in the page of tb, reading the page
// first when read is set.
func readDOMFacts(tb *tab, read bool) domFacts {
	tb.t.Helper()
	return eval[domFacts](tb, domFactsJS+"("+strconv.FormatBool(read)+")")
}

type domFacts struct {
	Title    string
	Text     string
	Tooltips int
	OnAttrs  []string
	Injected []string
	Scripts  struct {
		Classic, JSON int
		BadJSON       []string
	}
}

// pageFacts opens report in a fresh desktop tab and returns its DOM facts
// and the page's findings (requests, console, exceptions, dialogs). When
// read is set it initialises the charts first and reads the page as a
// reader would (domFactsJS); otherwise it takes the markup as loaded.
func pageFacts(t *testing.T, report string, read bool) (domFacts, []string) {
	t.Helper()
	tb := newTab(t, desktopWidth, desktopHeight, false, false)
	tb.open(report)
	var findings []string
	if read {
		findings = checkCharts(tb, chartWait)
	}
	facts := readDOMFacts(tb, read)
	return facts, append(findings, tb.problems()...)
}

// labelsOf joins the strings into labels of up to n strings each,
// separated by a space. In the HTML page no hazard depends on where a
// string sits in a label, so each label can carry several; a page of
// fewer systems has fewer charts to initialise.
func labelsOf(strs []string, n int) []string {
	var out []string
	for chunk := range slices.Chunk(strs, n) {
		out = append(out, strings.Join(chunk, " "))
	}
	return out
}

// TestReportHostileStrings builds a bundle whose title, system labels
// (three strings each), criterion ids and query ids are the hostile
// strings and checks in the browser that they are inert text: the title
// is exactly the title text, no script ran (no dialog, no changed title,
// no script element beyond those of the demo page), no element or on*
// attribute was injected (also in the echarts tooltips), and every string
// shows literally in the page text (white space normalised: a tab renders
// as a space).
func TestReportHostileStrings(t *testing.T) {
	needE2E(t)
	browserContext(t) // skip early without chromium
	hostile := hostileStrings(t)
	title := hostile[0] // </script><script>document.title='x'</script>
	dir := t.TempDir()
	// Ids with a control character (the tab) are refused at input, so
	// that no output carries a raw control character; labels keep them.
	var ids []string
	for _, s := range hostile {
		if !strings.ContainsFunc(s, unicode.IsControl) {
			ids = append(ids, s)
		}
	}
	// Three strings a label make six systems, a third of the charts of
	// one system a string. Formula prefixes, which matter only at the
	// start of a cell, are checked by the CSV and workbook tests.
	cfg := writeHostileProject(t, dir, title, labelsOf(hostile, 3), ids)
	report, err := buildBundle(cfg, filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(report); err == nil {
		save(t, "hostile-report.html", b) // to inspect a finding
	}

	// The demo page gives the scripts and on* attributes that the page
	// writes itself, as loaded: its charts are not initialised nor its
	// blocks opened. Were the page's script or echarts to add an on*
	// attribute or a script element, the hostile page (charts initialised,
	// every block opened) would have one the reference lacks and the test
	// would fail, never pass for it.
	ref, refFindings := pageFacts(t, demoReport(t), false)
	if len(refFindings) > 0 {
		t.Logf("the demo page has findings of its own (see TestReportDesktop): %d", len(refFindings))
	}
	t.Logf("demo page as loaded: %d classic scripts, on* attributes %q", ref.Scripts.Classic, ref.OnAttrs)
	got, findings := pageFacts(t, report, true)
	reportFindings(t, "hostile page", findings)

	if want := normSpace(title); got.Title != want {
		t.Errorf("document.title = %q, want %q", got.Title, want)
	}
	for _, inj := range got.Injected {
		t.Errorf("injected: %s", inj)
	}
	for _, a := range got.OnAttrs {
		if !slices.Contains(ref.OnAttrs, a) {
			t.Errorf("event handler attribute %s, which the demo page does not have", a)
		}
	}
	if got.Scripts.Classic != ref.Scripts.Classic {
		t.Errorf("%d script elements, the demo page has %d", got.Scripts.Classic, ref.Scripts.Classic)
	}
	for _, b := range got.Scripts.BadJSON {
		t.Errorf("a JSON option script does not parse: %s", b)
	}
	t.Logf("hostile page: %d classic and %d JSON scripts, %d tooltips shown, %d KB of text", got.Scripts.Classic, got.Scripts.JSON, got.Tooltips, len(got.Text)/1024)

	text := normSpace(got.Text)
	for _, h := range hostile {
		if !strings.Contains(text, normSpace(h)) {
			t.Errorf("the page text does not contain %q literally", h)
		}
	}
}
