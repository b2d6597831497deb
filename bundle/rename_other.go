//go:build !linux

package bundle

// sysExchange has no atomic exchange outside Linux: Commit falls back to
// moving the old version aside (see install).
func sysExchange(a, b string) error { return errNoExchange }

// renameNoReplace renames a to b unless b exists (a check, then the rename).
func renameNoReplace(a, b string) error { return renameIfAbsent(a, b) }
