// Package sysmem reads how much memory this process may use.
package sysmem

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// Total is the memory this process may use: the machine's
// (MemTotal of /proc/meminfo) or its control group's limit, whichever is
// smaller; 0 when neither can be read.
func Total() uint64 {
	total := 0.0
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, _ := strconv.ParseFloat(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 64)
				total = kb * 1024
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if lim, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64); err == nil && lim > 0 && (total == 0 || lim < total) {
			total = lim
		}
	}
	return uint64(total)
}
