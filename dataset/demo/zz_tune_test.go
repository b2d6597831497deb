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
