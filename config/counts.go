package config

// The counts a bundle is built for. Memory, the number of figures and the
// size of report.html grow with the systems listed and the pairs compared;
// past these maxima a build is refused at load (exit 2, at the key to
// change), before anything is computed. docs/reliability.md lists them.
const (
	// MaxSystems is the most systems one bundle lists: each adds about
	// 20 figures (three files each) and its sections to report.html.
	MaxSystems = 32
	// MaxComparisons is the most pairs of systems compared (paired
	// tests, CIs, rows of the comparisons table): all_pairs over 20
	// systems.
	MaxComparisons = 190
)

// checkSystemCount refuses more than MaxSystems systems.
func checkSystemCount(d *decoder, c *Config) {
	if d.skip("systems") || len(c.Systems) <= MaxSystems {
		return
	}
	d.errorf("systems", "%d systems listed, expected at most %d: each adds its figures and sections to the bundle (report.html, figures/ and memory grow with them); build groups of systems (ablations) in bundles of their own",
		len(c.Systems), MaxSystems)
}

// checkComparisonCount refuses a comparisons mode that compares more
// than MaxComparisons pairs (all_pairs over more than 20 systems).
func checkComparisonCount(d *decoder, c *Config) {
	if d.skip("comparisons") || d.skip("systems") || len(c.Systems) > MaxSystems {
		return
	}
	if n := len(c.Pairs()); n > MaxComparisons {
		d.errorf("comparisons", "%s over %d systems compares %d pairs, expected at most %d (all_pairs over 20 systems): set comparisons: primary, reference or ladder, or list fewer systems",
			c.Comparisons, len(c.Systems), n, MaxComparisons)
	}
}
