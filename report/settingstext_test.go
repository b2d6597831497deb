package report

import "testing"

// TestBootstrapText: the words of the bootstrap settings, written out by
// hand for each method and unit, with thousands separators in the count
// and at most four decimals in the level.
func TestBootstrapText(t *testing.T) {
	for _, c := range []struct {
		b    BootstrapSettings
		seed uint64
		want string
	}{
		{BootstrapSettings{Resamples: 10000, Unit: "post", Method: "percentile", Confidence: 0.95}, 42,
			"percentile bootstrap, 10,000 resamples of posts, 95% confidence level, seed 42"},
		{BootstrapSettings{Resamples: 1000, Unit: "query", Method: "bca", Confidence: 0.9}, 20260118,
			"BCa (bias-corrected and accelerated) bootstrap, 1,000 resamples of queries, 90% confidence level, seed 20260118"},
		{BootstrapSettings{Resamples: 200, Unit: "post", Method: "percentile", Confidence: 0.975}, 0,
			"percentile bootstrap, 200 resamples of posts, 97.5% confidence level, seed 0"},
		{BootstrapSettings{Resamples: 0, Unit: "post", Method: "percentile", Confidence: 0.95}, 42,
			"none (bootstrap.resamples is 0)"},
	} {
		if got := c.b.Text(c.seed); got != c.want {
			t.Errorf("%+v seed %d:\n got %q\nwant %q", c.b, c.seed, got, c.want)
		}
	}
}
