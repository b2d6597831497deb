// Package e2e holds the end-to-end tests of report.html (docs/report.md,
// docs/reliability.md):
// they build the reduced demo bundle (dataset/demo.Reduced: every section,
// figure and table of the full demo, from a fifth of its posts) and a
// bundle made of hostile strings with the
// real paperbundle binary, open each report.html from disk in Debian's
// headless chromium through chromedp, and check what a reviewer would meet:
//
//   - the page is offline and inert: no request leaves it (every request is
//     intercepted with the Fetch domain and the Network events are recorded),
//     no console error, no uncaught exception, no dialog;
//   - every interactive chart initialises once scrolled into view, for every
//     system of the system selector, and every link of the table of contents
//     has its target;
//   - the page is no wider than a 390 px phone;
//   - axe-core finds nothing serious or critical (light and dark colour
//     schemes);
//   - with JavaScript disabled every table and static figure is visible;
//   - hostile titles, labels and ids show as literal text and inject nothing;
//   - the HTML refers to nothing but data: URLs and in-page fragments.
//
// Screenshots (desktop, phone, dark) and a PDF print go to e2e/out/
// (git-ignored) for a person to look at.
//
// PAPERBUNDLE_E2E_REPORT=/path/to/report.html runs the checks of the demo
// report on another file (one built elsewhere, or edited while fixing a
// finding). The hostile-string bundle is saved as e2e/out/hostile-report.html.
//
// The tests skip with a message when testing.Short() is set, when chromium is
// not on PATH, or (the axe subtests only) when axe-core has not been
// fetched with `make axe`. The package has no code outside its tests.
package e2e
