package numtext

import (
	"math"
	"strconv"
	"testing"
)

// TestThousands: the library's grouping agrees with grouping by hand (a
// comma before every third digit from the right, the sign kept in front)
// on values around each power of ten and at the ends of int64.
func TestThousands(t *testing.T) {
	byHand := func(n int64) string {
		s := strconv.FormatInt(n, 10)
		sign := ""
		if s[0] == '-' {
			sign, s = "-", s[1:]
		}
		var b []byte
		for i := range s {
			if i > 0 && (len(s)-i)%3 == 0 {
				b = append(b, ',')
			}
			b = append(b, s[i])
		}
		return sign + string(b)
	}
	for _, c := range []struct {
		n    int64
		want string
	}{{0, "0"}, {999, "999"}, {1000, "1,000"}, {-1000, "-1,000"}, {14770, "14,770"}, {-1234567, "-1,234,567"}} {
		if got := Thousands(c.n); got != c.want {
			t.Errorf("Thousands(%d) = %q, want %q", c.n, got, c.want)
		}
	}
	ns := []int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1}
	for p := int64(1); p < math.MaxInt64/10; p *= 10 {
		ns = append(ns, p-1, p, p+1, -p+1, -p, -p-1, 7*p+3)
	}
	for _, n := range ns {
		if got, want := Thousands(n), byHand(n); got != want {
			t.Errorf("Thousands(%d) = %q, by hand %q", n, got, want)
		}
	}
}

// TestP: by hand.
func TestP(t *testing.T) {
	for _, c := range []struct {
		p    float64
		want string
	}{{0.05, "0.0500"}, {0.00012, "0.0001"}, {0.00009, "< 0.0001"}, {1, "1.0000"}, {math.NaN(), "n/a"}} {
		if got := P(c.p); got != c.want {
			t.Errorf("P(%v) = %q, want %q", c.p, got, c.want)
		}
	}
}
