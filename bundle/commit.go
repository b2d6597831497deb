package bundle

import (
	"context"
	"errors"
	"fmt"
	"os"
	"paperbundle/internal/interrupt"
	"paperbundle/internal/par"
	"paperbundle/internal/toolid"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// CommitOptions says where and how a bundle is written.
type CommitOptions struct {
	Root    string // results/paper_bundle
	Version string
	Force   bool   // replace an existing version
	Tool    string // the tool's version string
	// ToolBuild is the tool's build identity (module version, VCS stamp,
	// executable sha256); nil leaves it out of the manifest.
	ToolBuild *toolid.ID
	Seed      uint64  // the configuration's seed
	Config    []byte  // the resolved configuration; nil: the bundle's config.yaml
	Inputs    []Input // inputs recorded by hash only (HashFile), after those of AddInput
	// Previous is the version the bundle's changes were computed against
	// (nil: the first version); recorded in the manifest.
	Previous *Previous
	// Context, when not nil, stops the commit once canceled (an
	// interrupt): no version is written and the temporary folder is
	// removed. Once the rename has begun, the commit completes.
	Context context.Context
}

// LeftoverAge is the age after which a temporary folder of Commit is removed
// even when the process that made it still seems to run (its pid reused).
const LeftoverAge = 24 * time.Hour

// A temporary folder of Commit is named .<version>.tmp-<pid>-<random>; the
// old version moved aside by the fallback of Commit gets a further "-old".
var tempRE = regexp.MustCompile(`^\.(v[0-9]+(?:\.[0-9]+)*)\.tmp-([0-9]+)-`)

// exchange swaps two paths atomically, or returns errNoExchange; a variable
// so that tests can take the fallback.
var exchange = sysExchange

var errNoExchange = errors.New("atomic exchange not supported")

// Commit writes the bundle into Root/Version and returns that folder.
//
// It first removes leftovers of killed builds in Root: temporary folders of
// Commit whose process is gone, or older than LeftoverAge. It then writes
// every file into a new temporary folder beside the target
// (.<version>.tmp-<pid>-<random>), fsyncs each file and each folder, writes
// manifest.json last, fsyncs the folder, and renames it into place
// (refusing, atomically on Linux, to replace a version that appeared
// meanwhile), then fsyncs Root. The rename is the commit point: a build
// killed at any moment leaves no version folder or a complete one.
//
// An existing version gives ErrExists unless Force. With Force the new folder
// and the old one are exchanged atomically (renameat2 RENAME_EXCHANGE on
// Linux) and the old one, now under the temporary name, is removed.
func (b *Bundle) Commit(opt CommitOptions) (string, error) {
	if !ValidVersion(opt.Version) {
		return "", fmt.Errorf("bundle: version %q must match ^v[0-9]+(\\.[0-9]+)*$", opt.Version)
	}
	final := filepath.Join(opt.Root, opt.Version)
	if _, err := os.Stat(opt.Root); errors.Is(err, os.ErrNotExist) {
		if err := os.MkdirAll(opt.Root, 0o755); err != nil {
			return "", err
		}
		if err := syncDir(filepath.Dir(opt.Root)); err != nil {
			return "", err
		}
	}
	removeLeftovers(opt.Root)
	if _, err := os.Lstat(final); err == nil {
		if !opt.Force {
			return "", takenErr(final)
		}
		if why := Ours(final); why != nil {
			return "", fmt.Errorf("%s is not a bundle of paperbundle (%v): -force replaces only bundles, nothing was written", final, why)
		}
	}
	tmp, err := os.MkdirTemp(opt.Root, "."+opt.Version+".tmp-"+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return "", err
	}
	untrack := interrupt.Track(tmp) // removed if the process is ended by an interrupt
	defer untrack()
	defer os.RemoveAll(tmp) // after success: gone, or the old version after an exchange
	if err := os.Chmod(tmp, dirMode()); err != nil {
		return "", err
	}
	if err := b.write(tmp, opt); err != nil {
		return "", err
	}
	// The rename is the commit point: it is not started once the context
	// is canceled, and a forced exit waits for it (interrupt.Hold).
	release, ok := interrupt.Hold()
	if err := opt.err(); err != nil || !ok {
		release()
		if err == nil {
			err = interrupt.ErrInterrupted
		}
		return "", err
	}
	err = install(tmp, final, opt.Force)
	release()
	if err != nil {
		if errors.Is(err, os.ErrExist) {
			return "", takenErr(final)
		}
		return "", err
	}
	return final, syncDir(opt.Root)
}

// takenErr is the error of a version that exists at commit time: the
// command checked it was free before computing, so another build wrote
// it meanwhile; replacing that build's bundle (-force) is not the advice.
func takenErr(final string) error {
	return fmt.Errorf("%w: %s was written by another build while this one ran, nothing was written; build again with another version (without a version, the next free one is claimed)", ErrExists, final)
}

// write writes the files of b and manifest.json (last) into the folder tmp,
// syncing every file and folder.
func (b *Bundle) write(tmp string, opt CommitOptions) error {
	dirs := map[string]bool{}
	names := b.Names()
	for _, n := range names {
		p := filepath.Join(tmp, filepath.FromSlash(n))
		for d := filepath.Dir(p); d != tmp && !dirs[d]; d = filepath.Dir(d) {
			dirs[d] = true
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
	}
	// The files are written and synced by a few goroutines: a filesystem
	// commits the syncs of concurrent writers together, where one writer
	// waits for each in turn. Every file is synced before its folder.
	errs := make([]error, len(names))
	par.Jobs(writers, len(names), func() func(int) {
		return func(k int) {
			if errs[k] = opt.err(); errs[k] == nil {
				errs[k] = writeFile(filepath.Join(tmp, filepath.FromSlash(names[k])), b.files[names[k]])
			}
		}
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	sorted := make([]string, 0, len(dirs))
	for d := range dirs {
		sorted = append(sorted, d)
	}
	sort.Strings(sorted)
	for _, d := range sorted {
		if err := syncDir(d); err != nil {
			return err
		}
	}
	if err := writeFile(filepath.Join(tmp, ManifestName), b.Manifest(opt).JSON()); err != nil {
		return err
	}
	return syncDir(tmp)
}

// err is the error of a canceled Context, else nil.
func (opt CommitOptions) err() error {
	if opt.Context == nil {
		return nil
	}
	return opt.Context.Err()
}

// writers is the number of goroutines that write a bundle's files.
const writers = 8

// install moves the complete folder tmp to final. Without force, or when
// final does not exist, it is a rename that fails with os.ErrExist if final
// exists. With force, tmp and final are exchanged atomically; where the
// kernel or the filesystem cannot (errNoExchange: not Linux, or EINVAL,
// ENOSYS), the fallback moves the old version aside (tmp + "-old"), renames
// the new one in and removes the old one. The fallback is not atomic: a
// build killed between its two renames leaves no version folder, and the
// next Commit in Root moves the old version back (removeLeftovers).
func install(tmp, final string, force bool) error {
	if force {
		err := exchange(tmp, final)
		switch {
		case err == nil:
			return nil // the old version is now at tmp, removed by Commit
		case errors.Is(err, errNoExchange):
			old := tmp + "-old"
			if err := os.Rename(final, old); err == nil {
				if err := os.Rename(tmp, final); err != nil {
					os.Rename(old, final)
					return err
				}
				return os.RemoveAll(old)
			} else if !errors.Is(err, os.ErrNotExist) {
				return err
			}
		case !errors.Is(err, os.ErrNotExist):
			return err
		}
	}
	return renameNoReplace(tmp, final)
}

// renameIfAbsent renames a to b unless b exists (not atomic).
func renameIfAbsent(a, b string) error {
	if _, err := os.Lstat(b); err == nil {
		return &os.LinkError{Op: "rename", Old: a, New: b, Err: os.ErrExist}
	}
	return os.Rename(a, b)
}

// removeLeftovers removes the temporary folders of Commit in root whose
// process is gone or that are older than LeftoverAge. An old version moved
// aside by the fallback of install is moved back when its version folder is
// missing. Errors are ignored: a leftover must not stop a build.
func removeLeftovers(root string) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return
	}
	for _, e := range entries {
		m := tempRE.FindStringSubmatch(e.Name())
		if m == nil || !e.IsDir() {
			continue
		}
		pid, err := strconv.Atoi(m[2])
		info, ierr := e.Info()
		if err == nil && pidAlive(pid) && ierr == nil && time.Since(info.ModTime()) <= LeftoverAge {
			continue
		}
		p := filepath.Join(root, e.Name())
		if strings.HasSuffix(e.Name(), "-old") {
			if _, err := os.Lstat(filepath.Join(root, m[1])); errors.Is(err, os.ErrNotExist) && os.Rename(p, filepath.Join(root, m[1])) == nil {
				continue
			}
		}
		os.RemoveAll(p)
	}
}

// writeFile creates p with data and syncs it to disk.
func writeFile(p string, data []byte) error {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// syncDir syncs a folder, so that the entries made in it are on disk.
// Filesystems that cannot sync a folder (EINVAL) are accepted.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if errors.Is(err, syscall.EINVAL) {
		err = nil
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
