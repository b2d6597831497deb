// Package interrupt stops a command on SIGINT or SIGTERM within a second,
// at any stage, with no temporary file left behind.
//
// Notify turns the first signal into a canceled context: the long loops of
// the command (loading, the bootstrap's batches, rendering, writing the
// bundle) check it and return, the command removes its temporary files on
// the way out, and the process exits 130 (SIGINT) or 143 (SIGTERM). The
// first signal also restores the default handling, so a second signal ends
// the process at once. A stage that does not return within Grace of the
// signal is not waited for: the temporary paths registered with Track are
// removed and the process exits with the same status (Hold keeps that
// from happening in the middle of a commit's rename).
package interrupt

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"
)

// Grace is how long after the first signal the command may take to return
// by itself before the temporary paths are removed and the process exits.
const Grace = 500 * time.Millisecond

// Signal is the cause of a context canceled by Notify.
type Signal struct{ Sig os.Signal }

func (s Signal) Error() string {
	switch s.Sig {
	case os.Interrupt:
		return "interrupted by SIGINT"
	case syscall.SIGTERM:
		return "interrupted by SIGTERM"
	}
	return "interrupted by " + s.Sig.String()
}

// Status is the exit status for an interrupt by sig: 128 plus the signal
// number (130 for SIGINT, 143 for SIGTERM).
func (s Signal) Status() int {
	if n, ok := s.Sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return 130
}

// ErrInterrupted matches (errors.Is) every error caused by a signal.
var ErrInterrupted = errors.New("interrupted")

func (s Signal) Is(target error) bool { return target == ErrInterrupted }

// Cause returns the signal that canceled ctx, if one did.
func Cause(ctx context.Context) (Signal, bool) {
	var s Signal
	ok := errors.As(context.Cause(ctx), &s)
	return s, ok
}

var (
	mu      sync.Mutex
	paths   = map[string]int{}
	exiting bool
)

// exit is os.Exit; a variable for tests.
var exit = os.Exit

// Track registers a temporary file or folder to remove if the process is
// ended by an interrupt before the command returns; untrack forgets it
// (call it once the path is removed or has become permanent).
func Track(path string) (untrack func()) {
	mu.Lock()
	paths[path]++
	mu.Unlock()
	return func() {
		mu.Lock()
		if paths[path]--; paths[path] <= 0 {
			delete(paths, path)
		}
		mu.Unlock()
	}
}

// Hold keeps a forced exit from starting until release is called: a
// commit holds it around the rename that is its commit point, so that an
// interrupt never removes a folder while it is being renamed into place.
// ok is false once a forced exit has begun (the caller must not commit).
func Hold() (release func(), ok bool) {
	mu.Lock()
	if exiting {
		mu.Unlock()
		return func() {}, false
	}
	return mu.Unlock, true
}

// Notify returns a context canceled (with cause Signal) by the first
// SIGINT or SIGTERM, and stop, which ends the handling. After the first
// signal the default handling is back (a second signal kills the process),
// and if stop is not called within Grace the tracked paths are removed and
// the process exits with the signal's status.
func Notify(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	var once sync.Once
	stop = func() {
		once.Do(func() {
			signal.Stop(ch)
			close(done)
		})
	}
	go func() {
		select {
		case <-done:
			return
		case sig := <-ch:
			signal.Stop(ch)
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			s := Signal{sig}
			cancel(s)
			select {
			case <-done:
			case <-time.After(Grace):
				fmt.Fprintf(os.Stderr, "%s: %v: stopped, nothing written\n", filepath.Base(os.Args[0]), s)
				ForceExit(s.Status())
			}
		}
	}()
	return ctx, stop
}

// ForceExit removes the tracked paths and exits with status code. It waits
// for a Hold in progress and never returns.
func ForceExit(code int) {
	mu.Lock()
	exiting = true
	list := make([]string, 0, len(paths))
	for p := range paths {
		list = append(list, p)
	}
	mu.Unlock()
	for _, p := range list {
		// Writers still running may create a file between RemoveAll's
		// listing and its removal of the folder: try again.
		for try := 0; try < 3 && os.RemoveAll(p) != nil; try++ {
			time.Sleep(10 * time.Millisecond)
		}
	}
	exit(code)
}
