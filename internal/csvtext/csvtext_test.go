package csvtext

import "testing"

// TestSafe: by hand, and Unsafe(Safe(s)) == s.
func TestSafe(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"full", "full"}, {"=1+1", "'=1+1"}, {"+x", "'+x"}, {"-2", "'-2"}, {"@SUM(1)", "'@SUM(1)"},
		{"\tx", "'\tx"}, {"\rx", "'\rx"}, {"'x", "''x"}, {"'", "''"}, {"", ""}, {"a=b", "a=b"},
	} {
		if got := Safe(c.in); got != c.want {
			t.Errorf("Safe(%q) = %q, want %q", c.in, got, c.want)
		}
		if back := Unsafe(Safe(c.in)); back != c.in {
			t.Errorf("Unsafe(Safe(%q)) = %q", c.in, back)
		}
	}
}
