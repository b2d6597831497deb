package bundle

import "golang.org/x/sys/unix"

// pseudoFS names the kernel's file system that holds dir (/proc, /sys and
// their kind), where no bundle can be written; "" for any other.
func pseudoFS(dir string) string {
	var st unix.Statfs_t
	if unix.Statfs(dir, &st) != nil {
		return ""
	}
	switch int64(st.Type) {
	case unix.PROC_SUPER_MAGIC:
		return "proc"
	case unix.SYSFS_MAGIC:
		return "sysfs"
	case unix.CGROUP_SUPER_MAGIC, unix.CGROUP2_SUPER_MAGIC:
		return "cgroup"
	case unix.DEBUGFS_MAGIC:
		return "debugfs"
	case unix.DEVPTS_SUPER_MAGIC:
		return "devpts"
	case unix.SECURITYFS_MAGIC:
		return "securityfs"
	case unix.BPF_FS_MAGIC:
		return "bpf"
	case unix.TRACEFS_MAGIC:
		return "tracefs"
	}
	return ""
}
