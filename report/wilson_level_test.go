package report

import (
	"context"
	"math"
	"testing"
)

// TestReliabilityWilsonLevel: the reliability bins' Wilson intervals are
// at bootstrap.confidence. At 0.90 the z is scipy's norm.ppf(0.95) =
// 1.6448536269514722; for a bin of n queries with k positives the
// interval is (p + z²/2n ∓ z·sqrt(p(1−p)/n + z²/4n²)) / (1 + z²/n), p = k/n
// (computed here from the bin's own count and frequency, not read back
// from the kernel).
func TestReliabilityWilsonLevel(t *testing.T) {
	const z90 = 1.6448536269514722
	cfg := handConfig(50)
	cfg.Bootstrap.Confidence = 0.90
	r, err := Compute(context.Background(), cfg, handDataset(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Curves.Reliability) == 0 {
		t.Fatal("no reliability diagram")
	}
	checked := 0
	for _, b := range r.Curves.Reliability[0].Bins {
		if b.Count == 0 {
			continue
		}
		n := float64(b.Count)
		p := math.Round(float64(b.ObsFreq)*n) / n
		den := 1 + z90*z90/n
		mid := (p + z90*z90/(2*n)) / den
		half := z90 * math.Sqrt(p*(1-p)/n+z90*z90/(4*n*n)) / den
		if math.Abs(float64(b.WilsonLo)-(mid-half)) > 1e-12 || math.Abs(float64(b.WilsonHi)-(mid+half)) > 1e-12 {
			t.Errorf("bin %v-%v (n %d, p %.3f): Wilson [%v, %v], want [%v, %v] at 90%%", b.Lo, b.Hi, b.Count, p, b.WilsonLo, b.WilsonHi, mid-half, mid+half)
		}
		checked++
	}
	if checked == 0 {
		t.Error("no bin with queries")
	}
}
