package bundle

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// umask is the process's file mode creation mask, read from
// /proc/self/status (Linux); 022, the usual mask, where it cannot be read.
// Reading it there, rather than setting and restoring it with
// syscall.Umask, leaves it unchanged for the other goroutines.
func umask() os.FileMode {
	f, err := os.Open("/proc/self/status")
	if err != nil {
		return 0o022
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "Umask:"); ok {
			if m, err := strconv.ParseUint(strings.TrimSpace(rest), 8, 32); err == nil {
				return os.FileMode(m) & 0o777
			}
		}
	}
	return 0o022
}

// dirMode is the mode of a version folder: 0755 less the umask, as a
// folder made by mkdir (os.MkdirTemp makes 0700, which the commit widens).
func dirMode() os.FileMode { return 0o755 &^ umask() }
