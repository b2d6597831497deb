package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHarness runs the checks on two hand-written pages: testdata/good.html
// follows the DOM contract and must pass every check; testdata/bad.html
// breaks each rule once and every check must report it. So a green report
// test means the checks looked, not that they were blind.
func TestHarness(t *testing.T) {
	good, err := filepath.Abs(filepath.Join("testdata", "good.html"))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := filepath.Abs(filepath.Join("testdata", "bad.html"))
	if err != nil {
		t.Fatal(err)
	}

	t.Run("good", func(t *testing.T) {
		tb := newTab(t, 1280, 900, false, false)
		tb.open(good)
		reportFindings(t, "toc", checkTOC(tb))
		reportFindings(t, "charts", checkCharts(tb, chartWait))
		reportFindings(t, "page", tb.problems())
		facts := readDOMFacts(tb, true)
		reportFindings(t, "injection", facts.Injected)
		reportFindings(t, "event handler attributes", facts.OnAttrs)

		phone := newTab(t, 390, 844, true, false)
		phone.open(good)
		reportFindings(t, "width", checkWidth(phone, 390))

		noJS := newTab(t, 1280, 900, false, true)
		noJS.open(good)
		reportFindings(t, "no script", checkNoScript(noJS))
		reportFindings(t, "page without scripts", noJS.problems())

		f, err := os.Open(good)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		refs, err := externalRefs(f)
		if err != nil {
			t.Fatal(err)
		}
		reportFindings(t, "references", refs)
	})

	t.Run("bad", func(t *testing.T) {
		tb := newTab(t, 1280, 900, false, false)
		tb.open(bad)
		expect(t, "toc", checkTOC(tb), `"#sec-missing"`, "section#sec-unlinked is not linked")
		// #fig-x never initialises, so the check waits its whole bound;
		// bad.html has no other chart, so a short bound is enough.
		expect(t, "charts", checkCharts(tb, badChartWait), "#fig-x (pb_x) not initialised")
		expect(t, "page", tb.problems(),
			"request leaves the page: fetch Stylesheet http://127.0.0.1:9/style.css",
			"request leaves the page: fetch Image http://127.0.0.1:9/pixel.png",
			"console error: console.error: boom",
			"uncaught exception: Uncaught Error: uncaught",
			`dialog opened: alert dialog: "hi"`)
		facts := readDOMFacts(tb, true)
		expect(t, "injection", facts.Injected, `img[src="x"]`, "<b>bold</b> rendered as markup", `a[href="http://127.0.0.1:9/example.invalid"]`)
		expect(t, "event handler attributes", facts.OnAttrs, "img[onerror]")

		phone := newTab(t, 390, 844, true, false)
		phone.open(bad)
		expect(t, "width", checkWidth(phone, 390), "scrollWidth is", "sticks out: div.wide in section#sec-one")

		noJS := newTab(t, 1280, 900, false, true)
		noJS.open(bad)
		expect(t, "no script", checkNoScript(noJS),
			`details.sys[data-system="b"] in section#sec-one is open=true, want only the primary system "a" open`,
			"figure#fig-x",
			"has no inline svg",
			"not visible without scripts: table",
		)
	})

	t.Run("axe", func(t *testing.T) {
		script := axeScript(t)
		tb := newTab(t, 1280, 900, false, false)
		tb.open(good)
		reportFindings(t, "axe on good.html", runAxe(tb, script))

		tb = newTab(t, 1280, 900, false, false)
		tb.open(bad)
		expect(t, "axe on bad.html", runAxe(tb, script),
			"axe image-alt [critical]", "axe select-name [critical]",
			"axe color-contrast [serious]", "axe html-has-lang [serious]")
	})
}

// badChartWait bounds the wait for bad.html's chart, which never
// initialises; the real report's bound, chartWait, would add its 10 s to
// every run.
const badChartWait = 1500 * time.Millisecond

// expect fails unless every substring occurs in some finding; it logs the
// findings, which are what a broken page is expected to produce.
func expect(t *testing.T, what string, findings []string, substrings ...string) {
	t.Helper()
	all := strings.Join(findings, "\n")
	for _, s := range substrings {
		if !strings.Contains(all, s) {
			t.Errorf("%s: no finding contains %q; findings:\n%s", what, s, all)
		}
	}
}
