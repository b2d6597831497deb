package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/fetch"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// tabTimeout bounds everything one test does in its tab: loading a 4 MB
// page, initialising every chart, running axe-core and printing a PDF.
const tabTimeout = 5 * time.Minute

// The one browser of the run, started on first use and closed by TestMain.
var browser struct {
	once   sync.Once
	ctx    context.Context
	cancel []context.CancelFunc
	err    error
}

// browserContext returns the context of the shared browser, starting
// Debian's chromium headless, sandbox and GPU off, no component updates
// (the flags below). It skips the test when
// chromium is not installed.
func browserContext(t *testing.T) context.Context {
	t.Helper()
	needE2E(t)
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not found on PATH: install Debian's chromium (.ci/run does) to run the browser tests")
	}
	browser.once.Do(func() {
		// DefaultExecAllocatorOptions already has --headless, --no-first-run,
		// --disable-background-networking and --disable-sync.
		opts := append(chromedp.DefaultExecAllocatorOptions[:],
			chromedp.ExecPath(path),
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.Flag("disable-component-update", true),
		)
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
		ctx, cancelCtx := chromedp.NewContext(actx)
		browser.ctx, browser.cancel = ctx, []context.CancelFunc{cancelCtx, cancelAlloc}
		browser.err = chromedp.Do(ctx) // starts the browser, with no deadline
	})
	if browser.err != nil {
		t.Fatalf("starting %s: %v", path, browser.err)
	}
	return browser.ctx
}

func closeBrowser() {
	for _, cancel := range browser.cancel {
		cancel()
	}
}

// tab is one browser tab that records everything a page must not do: a
// request other than its own document or a data: URL, a console error, an
// uncaught exception, a dialog. Every request is paused by the Fetch
// domain; the allowed ones continue, the others fail before they leave the
// machine.
type tab struct {
	t   *testing.T
	ctx context.Context // bounded by tabTimeout

	mu         sync.Mutex
	doc        string   // the URL of the document, without fragment
	requests   []string // forbidden requests
	errors     []string // console errors and browser log errors
	exceptions []string
	dialogs    []string
	warnings   []string // console and log warnings, logged only
}

// newTab opens a tab in the shared browser, with a viewport of width x
// height CSS pixels (mobile emulation when mobile) and scripts enabled
// unless noScript. Call open to load a page.
func newTab(t *testing.T, width, height int64, mobile, noScript bool) *tab {
	t.Helper()
	bctx := browserContext(t)
	tctx, cancelTab := chromedp.NewContext(bctx)
	t.Cleanup(cancelTab)
	if err := chromedp.Do(tctx); err != nil { // opens the tab, with no deadline
		t.Fatalf("opening a tab: %v", err)
	}
	ctx, cancel := context.WithTimeout(tctx, tabTimeout)
	t.Cleanup(cancel)
	tb := &tab{t: t, ctx: ctx}

	paused := make(chan *fetch.EventRequestPaused, 256)
	dialogs := make(chan struct{}, 16)
	if err := chromedp.Listen(ctx, func(ev any) {
		// Runs in the tab's read loop: record and hand over, no command.
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			tb.request("network", string(ev.Type), ev.Request.URL)
		case *fetch.EventRequestPaused:
			paused <- ev
		case *runtime.EventConsoleAPICalled:
			msg := "console." + string(ev.Type) + ": " + consoleText(ev.Args)
			switch ev.Type {
			case runtime.ConsoleAPICalledTypeError, runtime.ConsoleAPICalledTypeAssert:
				tb.add(&tb.errors, msg)
			case runtime.ConsoleAPICalledTypeWarning:
				tb.add(&tb.warnings, msg)
			}
		case *runtime.EventExceptionThrown:
			tb.add(&tb.exceptions, exceptionText(ev.ExceptionDetails))
		case *cdplog.EventEntryAdded:
			msg := fmt.Sprintf("log %s (%s): %s %s", ev.Entry.Level, ev.Entry.Source, ev.Entry.Text, ev.Entry.URL)
			switch ev.Entry.Level {
			case cdplog.EntryLevelError:
				tb.add(&tb.errors, msg)
			case cdplog.EntryLevelWarning:
				tb.add(&tb.warnings, msg)
			}
		case *page.EventJavascriptDialogOpening:
			tb.add(&tb.dialogs, fmt.Sprintf("%s dialog: %q", ev.Type, ev.Message))
			select {
			case dialogs <- struct{}{}:
			default:
			}
		}
	}); err != nil {
		t.Fatal(err)
	}
	// Answer the paused requests and close the dialogs outside the loop.
	go func() {
		for {
			select {
			case <-ctx.Done():
				return
			case ev := <-paused:
				if tb.request("fetch", string(ev.ResourceType), ev.Request.URL) {
					chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
				} else {
					chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
				}
			case <-dialogs:
				chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			}
		}
	}()

	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
		t.Fatalf("Fetch.enable: %v", err)
	}
	var opts []chromedp.EmulateViewportOption
	if mobile {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(width, height, opts...)); err != nil {
		t.Fatalf("viewport: %v", err)
	}
	if noScript {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatalf("Emulation.setScriptExecutionDisabled: %v", err)
		}
	}
	return tb
}

// run runs f as the subtest name of the tab's test, with the tab's
// helpers (eval, problems, ...) failing and logging to the subtest while it
// runs; the tab stays open for the parent test afterwards.
func (tb *tab) run(name string, f func(t *testing.T)) bool {
	parent := tb.t
	return parent.Run(name, func(t *testing.T) {
		tb.t = t
		defer func() { tb.t = parent }()
		f(t)
	})
}

// open loads the file at path (file:// URL) and waits for its load event.
func (tb *tab) open(path string) {
	tb.t.Helper()
	u := (&url.URL{Scheme: "file", Path: path}).String()
	tb.mu.Lock()
	tb.doc = u
	tb.mu.Unlock()
	start := time.Now()
	if err := chromedp.Do(tb.ctx, chromedp.Navigate(u)); err != nil {
		tb.t.Fatalf("opening %s: %v", u, err)
	}
	tb.t.Logf("loaded %s in %v", u, time.Since(start).Round(time.Millisecond))
}

// request records a request seen by source and reports whether it is
// allowed: the document itself, a data: URL, or the blank page of a new tab.
func (tb *tab) request(source, kind, u string) bool {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	base, _, _ := strings.Cut(u, "#")
	if base == tb.doc || strings.HasPrefix(u, "data:") || u == "about:blank" {
		return true
	}
	if len(u) > 200 {
		u = u[:200] + "…"
	}
	tb.requests = append(tb.requests, fmt.Sprintf("%s %s %s", source, kind, u))
	return false
}

func (tb *tab) add(list *[]string, msg string) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	*list = append(*list, msg)
}

// problems returns what the page did wrong so far, one line each, and logs
// the warnings.
func (tb *tab) problems() []string {
	tb.t.Helper()
	// A round trip: the events sent before its reply have been recorded.
	chromedp.Run(tb.ctx, chromedp.Evaluate[chromedp.Void](`0`))
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, w := range tb.warnings {
		tb.t.Logf("warning: %s", w)
	}
	tb.warnings = nil
	var out []string
	out = appendCounted(out, "request leaves the page: ", tb.requests)
	out = appendCounted(out, "console error: ", tb.errors)
	out = appendCounted(out, "uncaught exception: ", tb.exceptions)
	out = appendCounted(out, "dialog opened: ", tb.dialogs)
	return out
}

// appendCounted appends each distinct message once, in order of first
// appearance, with the number of times it occurred when more than once.
func appendCounted(out []string, prefix string, msgs []string) []string {
	count := map[string]int{}
	for _, m := range msgs {
		count[m]++
	}
	for _, m := range msgs {
		switch n := count[m]; {
		case n == 1:
			out = append(out, prefix+m)
		case n > 1:
			out = append(out, fmt.Sprintf("%s%s (%d times)", prefix, m, n))
		}
		count[m] = 0
	}
	return out
}

// eval evaluates a JavaScript expression in the page (awaiting a promise)
// and decodes its JSON value into T.
func eval[T any](tb *tab, expr string) T {
	tb.t.Helper()
	v, err := chromedp.Run(tb.ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		tb.t.Fatalf("evaluate %.60q…: %v", expr, err)
	}
	return v
}

// darkScheme emulates prefers-color-scheme: dark.
func (tb *tab) darkScheme() {
	tb.t.Helper()
	_, err := chromedp.Call(tb.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}},
	})
	if err != nil {
		tb.t.Fatalf("Emulation.setEmulatedMedia: %v", err)
	}
}

// screenshot saves a full-page PNG screenshot as name. Chromium refuses
// pages beyond its largest surface ("Page is too large"); then the test
// logs it and saves the viewport only.
func (tb *tab) screenshot(name string) {
	tb.t.Helper()
	buf, err := chromedp.Run(tb.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		tb.t.Logf("full-page screenshot %s: %v; saving the viewport only", name, err)
		if buf, err = chromedp.Run(tb.ctx, chromedp.CaptureScreenshot()); err != nil {
			tb.t.Errorf("screenshot %s: %v", name, err)
			return
		}
	}
	save(tb.t, name, buf)
}

// consoleText joins the arguments of a console call as the console shows
// them: strings as they are, other values by their JSON or description.
func consoleText(args []*runtime.RemoteObject) string {
	parts := make([]string, 0, len(args))
	for _, a := range args {
		var s string
		switch {
		case len(a.Value) > 0:
			if err := json.Unmarshal(a.Value, &s); err != nil {
				s = string(a.Value)
			}
		case a.UnserializableValue != "":
			s = string(a.UnserializableValue)
		default:
			s = a.Description
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}

// exceptionText is the message and place of an uncaught exception.
func exceptionText(d *runtime.ExceptionDetails) string {
	if d == nil {
		return "(no details)"
	}
	msg := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		msg += " " + d.Exception.Description
	}
	return fmt.Sprintf("%s (%s:%d:%d)", msg, d.URL, d.LineNumber+1, d.ColumnNumber+1)
}
