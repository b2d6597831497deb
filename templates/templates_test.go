package templates

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"strings"
	"testing"
)

// TestEChartsPinned: when make echarts has fetched the library, the
// embedded bytes are exactly the pinned file.
func TestEChartsPinned(t *testing.T) {
	js := ECharts()
	if js == nil {
		t.Skip("echarts not fetched (make echarts); the report falls back to static figures")
	}
	want, err := os.ReadFile("echarts.sha256")
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(js)
	if got := hex.EncodeToString(sum[:]); got != strings.TrimSpace(string(want)) {
		t.Errorf("embedded echarts.min.js sha256 %s, pinned %s", got, want)
	}
}
