package demo

import (
	"os"
	"testing"
	"time"
)

func TestZZWrite(t *testing.T) {
	dir := os.Getenv("DEMO_OUT")
	if dir == "" {
		t.Skip()
	}
	t0 := time.Now()
	if err := Write(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	t.Logf("write %v", time.Since(t0))
}

func TestZZSeeds(t *testing.T) {
	if os.Getenv("DEMO_SEEDS") == "" {
		t.Skip()
	}
	minA, minR := 1.0, 1.0
	for seed := uint64(1); seed <= 12; seed++ {
		d, _ := Generate(Options{Seed: seed})
		a, r := ladderStats(d)
		for s := 1; s < len(a); s++ {
			minA = min(minA, a[s]-a[s-1])
			minR = min(minR, r[s]-r[s-1])
		}
		t.Logf("seed %2d AUROC %.4f %.4f %.4f %.4f %.4f %.4f | R@10 %.4f %.4f %.4f %.4f %.4f %.4f", seed, a[0], a[1], a[2], a[3], a[4], a[5], r[0], r[1], r[2], r[3], r[4], r[5])
	}
	t.Logf("min step AUROC %.4f R@10 %.4f", minA, minR)
}
