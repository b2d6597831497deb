package main

import (
	"paperbundle/internal/toolid"

	"fmt"
	"io"
	"os"
	"runtime/debug"
	"time"

	"golang.org/x/term"
)

// progress prints one line per long step on a terminal, and nothing when
// stderr is not a terminal or -q is given.
type progress struct {
	w     io.Writer
	on    bool
	start time.Time
}

func newProgress(w io.Writer, quiet bool) *progress {
	on := false
	if f, ok := w.(*os.File); ok && !quiet {
		on = term.IsTerminal(int(f.Fd()))
	}
	return &progress{w: w, on: on, start: time.Now()}
}

func (p *progress) step(what string) {
	if p.on {
		fmt.Fprintf(p.w, "\r\033[K[%5.1fs] %s", time.Since(p.start).Seconds(), what)
	}
}

func (p *progress) done() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// toolBuild is the running tool's build identity (module version, VCS
// stamp, sha256 of the executable), as the manifest records it.
func toolBuild() *toolid.ID {
	id := toolid.Self()
	return &id
}

// toolVersion is the module version from the build information, or "devel".
func toolVersion() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return "paperbundle " + bi.Main.Version
	}
	return "paperbundle devel"
}
