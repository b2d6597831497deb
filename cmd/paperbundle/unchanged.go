package main

import (
	"bytes"
	"os"
	"path/filepath"

	"paperbundle/bundle"
	"paperbundle/config"
)

// unchanged reports the latest version in root when building again would
// make the same bundle: its resolved configuration (compared without
// version and out), the sha256 of every input and the tool's build
// identity (version, VCS stamp and the sha256 of the executable) are the
// ones of this build. A version string alone never decides: every build
// without VCS stamping says "devel", every edited tree "+dirty", and a
// bundle that recorded no build identity is never current. The configuration file itself is left out of
// the input comparison: its resolved content is compared instead, so a
// new comment or a changed out: does not make a new version.
func unchanged(root string, cfg *config.Config) (string, bool) {
	latest, err := bundle.Latest(root)
	if err != nil || latest == "" {
		return "", false
	}
	inputs, ok := inputHashes(cfg)
	if !ok {
		return "", false
	}
	dir := filepath.Join(root, latest)
	op, err := bundle.Open(dir)
	if err != nil || op.Manifest.Tool != toolVersion() || op.Manifest.ToolBuild == nil || !op.Manifest.ToolBuild.Equal(*toolBuild()) {
		return "", false
	}
	old, err := bundle.ReadFile(dir, "config.yaml", config.MaxFileBytes)
	if err != nil {
		return "", false
	}
	was, err := config.ParseWith(filepath.Join(dir, "config.yaml"), old, dir, config.Options{KnownMetric: knownMetric})
	if err != nil {
		return "", false
	}
	a, errA := comparableYAML(was)
	b, errB := comparableYAML(cfg)
	if errA != nil || errB != nil || !bytes.Equal(a, b) {
		return "", false
	}
	self := ""
	if cfg.File != "" {
		self = filepath.Base(cfg.File)
	}
	sums := func(in []bundle.Input) map[string]string {
		m := map[string]string{}
		for _, x := range in {
			if x.Path != self {
				m[x.Path] = x.SHA256
			}
		}
		return m
	}
	now, then := sums(inputs), sums(op.Manifest.Inputs)
	if len(now) != len(then) {
		return "", false
	}
	for p, h := range now {
		if then[p] != h {
			return "", false
		}
	}
	return latest, true
}

// inputHashes reads the sha256 of every input the configuration names, by
// the path the manifest records. It is a look ahead only: the build that
// follows hashes what it parses again, as it reads it. An input that is
// not a regular file (a FIFO, /dev/stdin) cannot be read twice, so the
// build is never found unchanged then (ok false).
func inputHashes(cfg *config.Config) (in []bundle.Input, ok bool) {
	for _, g := range inputGiven(cfg) {
		name := cfg.ResolvePath(g)
		if fi, err := os.Stat(name); err != nil || !fi.Mode().IsRegular() {
			return nil, false
		}
		x, err := bundle.HashFile(name)
		if err != nil {
			return nil, false
		}
		x.Path = givenPath(g)
		in = append(in, x)
	}
	return in, true
}

// comparableYAML is the resolved configuration without version and out.
func comparableYAML(c *config.Config) ([]byte, error) {
	cp := *c
	cp.Version, cp.Out = "", ""
	return cp.YAML()
}
