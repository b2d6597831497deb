//go:build unix

package interrupt

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestNotify: the first SIGINT cancels the context with a Signal cause
// whose status is 130; a command that does not return within Grace is
// ended with its tracked paths removed, after a Hold in progress.
func TestNotify(t *testing.T) {
	codes := make(chan int, 1)
	exit = func(code int) { codes <- code }
	defer func() { exit = os.Exit }()
	dir := filepath.Join(t.TempDir(), "tmp")
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	untrack := Track(dir)
	defer untrack()

	ctx, stop := Notify(context.Background())
	defer stop()
	release, ok := Hold()
	if !ok {
		t.Fatal("Hold before any signal: not ok")
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("SIGINT did not cancel the context")
	}
	s, ok := Cause(ctx)
	if !ok || s.Status() != 130 || !errors.Is(s, ErrInterrupted) || s.Error() != "interrupted by SIGINT" {
		t.Errorf("cause %v (%v), status %d", s, ok, s.Status())
	}
	// The forced exit waits for the Hold.
	time.Sleep(Grace + 200*time.Millisecond)
	select {
	case c := <-codes:
		t.Fatalf("exit %d during a Hold", c)
	default:
	}
	release()
	select {
	case c := <-codes:
		if c != 130 {
			t.Errorf("forced exit %d, want 130", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no forced exit after Grace")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("tracked folder left after the forced exit: %v", err)
	}
	if _, ok := Hold(); ok {
		t.Errorf("Hold after a forced exit began: ok")
	}
	if s := (Signal{syscall.SIGTERM}); s.Status() != 143 {
		t.Errorf("SIGTERM status %d, want 143", s.Status())
	}
}
