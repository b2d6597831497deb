package tables

import "testing"

// TestRangeText: a stratum range gets an en dash, which Excel and
// LibreOffice do not read as a date ("3-5" becomes 5 March); anything
// else is left as it is.
func TestRangeText(t *testing.T) {
	for in, want := range map[string]string{
		"3-5": "3\u20135", "10-19": "10\u201319", "1": "1", "20+": "20+", "-5": "-5", "3-": "3-", "a-b": "a-b", "3-5-7": "3-5-7",
	} {
		if got := rangeText(in); got != want {
			t.Errorf("rangeText(%q) = %q, want %q", in, got, want)
		}
	}
}
