package dataset

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestParseDecimalFast checks the fast decimal path against
// strconv.ParseFloat, the reference: wherever the fast path answers, it must
// give the identical float64 (bit for bit, including -0).
func TestParseDecimalFast(t *testing.T) {
	tests := []struct {
		s  string
		ok bool // whether the fast path takes it
	}{
		{"0", true}, {"-0", true}, {"007", true}, {"0.1", true}, {"0.001", true},
		{"-12.5", true}, {"123456789012345", true}, {"0.123456789012345", true},
		{"1234567890123456", false}, {"1e5", false}, {"+1", false}, {"", false},
		{"-", false}, {".", false}, {"1.", false}, {".5", false}, {"1.2.3", false},
		{"0.0000000000000000000001", true}, {"0.00000000000000000000001", false},
		{"NaN", false}, {"1_000", false}, {"0x10", false},
	}
	for _, tt := range tests {
		x, ok := parseDecimalFast(tt.s)
		if ok != tt.ok {
			t.Errorf("parseDecimalFast(%q) ok = %v, want %v", tt.s, ok, tt.ok)
			continue
		}
		if ok {
			want, err := strconv.ParseFloat(tt.s, 64)
			if err != nil || math.Float64bits(x) != math.Float64bits(want) {
				t.Errorf("parseDecimalFast(%q) = %v, strconv gives %v (%v)", tt.s, x, want, err)
			}
		}
	}
	rng := rand.New(rand.NewPCG(7, 7))
	for i := 0; i < 200_000; i++ {
		prec := rng.IntN(16)
		x := (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(12)-4))
		s := strconv.FormatFloat(x, 'f', prec, 64)
		got, msg := parseFloat(s)
		want, err := strconv.ParseFloat(s, 64)
		if msg != "" || err != nil || math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseFloat(%q) = %v %q, strconv gives %v %v", s, got, msg, want, err)
		}
	}
}

// FuzzDecimal checks parseFloat against strconv.ParseFloat on any string:
// same value whenever strconv gives a finite one from a decimal spelling,
// an error otherwise (hexadecimal floats are refused).
func FuzzDecimal(f *testing.F) {
	for _, s := range []string{"0.5", "-0", "1e-3", "007.50", ".5", "1.", "NaN", "1e999", "0.1234567890123456789", "0x1p-2", "-0X1.8P1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, msg := parseFloat(s)
		want, err := strconv.ParseFloat(s, 64)
		finite := (err == nil || isRangeErr(err)) && !math.IsInf(want, 0) && !math.IsNaN(want) && !isHexFloat(s)
		if finite != (msg == "") {
			t.Fatalf("parseFloat(%q): msg %q, strconv %v %v", s, msg, want, err)
		}
		if finite && math.Float64bits(got) != math.Float64bits(want) {
			t.Fatalf("parseFloat(%q) = %v, strconv gives %v", s, got, want)
		}
	})
}

// TestLookup checks both the scanned and the hashed lookup: positions,
// misses, and the first duplicate by second occurrence.
func TestLookup(t *testing.T) {
	var l lookup
	for _, n := range []int{0, 1, 5, 8, 9, 50, 3000} {
		ids := make([]string, n)
		for i := range ids {
			ids[i] = "id" + strconv.Itoa(i)
		}
		if i, j := l.reset(ids); i != -1 || j != -1 {
			t.Errorf("n=%d: distinct ids reported as duplicate %d, %d", n, i, j)
		}
		for i, s := range ids {
			if got := l.find(s); got != i {
				t.Errorf("n=%d: find(%q) = %d, want %d", n, s, got, i)
			}
		}
		if got := l.find("nope"); got != -1 {
			t.Errorf("n=%d: find(nope) = %d, want -1", n, got)
		}
		if n < 9 {
			continue
		}
		// Two duplicates: id3 again at n-1, id1 again at n-2. The first
		// by second occurrence is (1, n-2).
		ids[n-1], ids[n-2] = "id3", "id1"
		if i, j := l.reset(ids); i != 1 || j != n-2 {
			t.Errorf("n=%d: duplicate (%d, %d), want (1, %d)", n, i, j, n-2)
		}
	}
}
