package metrics

import "testing"

// TestTitle: the parameter is written into each kind of title; the
// expected strings are the registry's titles with the placeholder replaced
// by hand.
func TestTitle(t *testing.T) {
	for _, c := range []struct {
		id   ID
		want string
	}{
		{RankRecall.At(10), "Recall@10"},
		{RankIPrec.AtRecall(0.1), "Interpolated precision at recall 0.1"},
		{"no.such", "no.such"},
	} {
		if got := Title(c.id); got != c.want {
			t.Errorf("Title(%q) = %q, want %q", c.id, got, c.want)
		}
	}
}
