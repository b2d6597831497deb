package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"time"

	"github.com/chromedp/chromedp"
)

// loads is the number of loads of report.html; the first is a warm-up.
const loads = 5

// loadTimeout bounds one load of report.html in its tab.
const loadTimeout = 2 * time.Minute

// navTimes waits until the load event has ended and returns the navigation
// timing of the page, in ms from the start of navigation.
const navTimes = `new Promise(resolve => {
	const poll = () => {
		const n = performance.getEntriesByType('navigation')[0];
		if (n && n.loadEventEnd > 0) resolve({dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd});
		else setTimeout(poll, 10);
	};
	poll();
})`

type timing struct {
	DCL  float64 `json:"dcl"`
	Load float64 `json:"load"`
}

// measureReport prints the size of report.html in the single version folder
// of out and its DOMContentLoaded and load times in headless Chromium
// (budgets of docs/report.md: 4 MB, 1 s). It only prints: a problem is reported on the line
// and the benchmark goes on.
func measureReport(out string) {
	path, err := reportPath(out)
	if err != nil {
		fmt.Printf("    report.html: %v\n", err)
		return
	}
	fi, err := os.Stat(path)
	if err != nil {
		fmt.Printf("    report.html: %v\n", err)
		return
	}
	fmt.Printf("    report.html size: %d bytes (%.2f MB; budget 4 MB)\n", fi.Size(), float64(fi.Size())/1e6)

	chromium, err := exec.LookPath("chromium")
	if err != nil {
		fmt.Println("    report.html load: skipped (no chromium)")
		return
	}
	ts, err := loadTimes(chromium, path)
	if err != nil {
		fmt.Printf("    report.html load: %v\n", err)
		return
	}
	dcl := make([]float64, len(ts))
	load := make([]float64, len(ts))
	for i, t := range ts {
		dcl[i], load[i] = t.DCL, t.Load
	}
	fmt.Printf("    report.html load (headless chromium, %d loads after a warm-up): DOMContentLoaded median %.0f ms, max %.0f ms; load median %.0f ms, max %.0f ms (budget: DOMContentLoaded 1 s)\n",
		len(ts), median(dcl), slices.Max(dcl), median(load), slices.Max(load))
}

// reportPath returns out/<version>/report.html, where <version> is the
// single folder in out.
func reportPath(out string) (string, error) {
	dir, err := versionDir(out)
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "report.html"), nil
}

// loadTimes starts chromium with the flags of the browser tests
// (e2e/browser_test.go), opens the file at path loads times, each in a
// fresh tab, and returns the timings of all loads but the first (a warm-up).
func loadTimes(chromium, path string) ([]timing, error) {
	// DefaultExecAllocatorOptions already has --headless, --no-first-run,
	// --disable-background-networking and --disable-sync.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chromium),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.Flag("disable-component-update", true),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancelAlloc()
	bctx, cancelBrowser := chromedp.NewContext(actx)
	defer cancelBrowser()
	if err := chromedp.Do(bctx); err != nil { // starts the browser, with no deadline
		return nil, fmt.Errorf("starting %s: %w", chromium, err)
	}
	u := (&url.URL{Scheme: "file", Path: path}).String()
	var ts []timing
	for i := range loads {
		t, err := loadOnce(bctx, u)
		if err != nil {
			return nil, fmt.Errorf("load %d of %s: %w", i+1, u, err)
		}
		if i > 0 {
			ts = append(ts, t)
		}
	}
	return ts, nil
}

// loadOnce opens u in a fresh tab of the browser of bctx, waits for its load
// event and returns its navigation timing.
func loadOnce(bctx context.Context, u string) (timing, error) {
	tctx, cancelTab := chromedp.NewContext(bctx)
	defer cancelTab()
	if err := chromedp.Do(tctx); err != nil { // opens the tab, with no deadline
		return timing{}, err
	}
	ctx, cancel := context.WithTimeout(tctx, loadTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(u)); err != nil {
		return timing{}, err
	}
	return chromedp.Run(ctx, chromedp.Evaluate[timing](navTimes, chromedp.EvalAwaitPromise))
}

// median returns the median of xs, which must not be empty.
func median(xs []float64) float64 {
	s := slices.Sorted(slices.Values(xs))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
