package bundle

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// LatestName is the entry of a bundle root that names the newest version
// built: a relative symbolic link to it, or, where links cannot be made,
// a text file holding its name. A manuscript inputs
// results/paper_bundle/latest/paper/numbers.tex and never edits a version.
const LatestName = "latest"

// latestTmp starts the name of a pointer being made, before the pid of
// the build making it.
const latestTmp = "." + LatestName + ".tmp"

// removeDeadPointers removes the pointers being made by builds that no
// longer run (killed between making and renaming one).
func removeDeadPointers(root string) {
	entries, _ := os.ReadDir(root)
	for _, e := range entries {
		if pid, err := strconv.Atoi(strings.TrimPrefix(e.Name(), latestTmp)); err == nil && strings.HasPrefix(e.Name(), latestTmp) && !pidAlive(pid) {
			_ = os.Remove(filepath.Join(root, e.Name()))
		}
	}
}

// PointLatestNewest points root/latest at the highest complete version of
// root (builds that run at once, or a rebuild of an older version, leave it
// at the newest).
func PointLatestNewest(root string) error {
	v, err := Latest(root)
	if err != nil || v == "" {
		return err
	}
	return PointLatest(root, v)
}

// PointLatest points root/latest at version: a relative symbolic link made
// beside it and renamed over the old one (readers see the old or the new
// link, never none), else a text file "v3\n" written the same way. An
// existing latest that is neither a link nor such a file (a folder of the
// user's) is left alone and reported.
func PointLatest(root, version string) error {
	p := filepath.Join(root, LatestName)
	if fi, err := os.Lstat(p); err == nil && fi.Mode()&fs.ModeSymlink == 0 && !isPointerFile(p, fi) {
		return fmt.Errorf("%s exists and is not paperbundle's pointer to the newest version: left as it is (remove it to get one)", p)
	}
	removeDeadPointers(root)
	tmp := filepath.Join(root, latestTmp+strconv.Itoa(os.Getpid()))
	_ = os.Remove(tmp)
	if err := os.Symlink(version, tmp); err != nil {
		if err := os.WriteFile(tmp, []byte(version+"\n"), 0o644); err != nil {
			return fmt.Errorf("pointing %s at %s: %w", p, version, err)
		}
	}
	if err := os.Rename(tmp, p); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("pointing %s at %s: %w", p, version, err)
	}
	return nil
}

// isPointerFile reports whether p is a small file holding one version
// name: the text form of latest.
func isPointerFile(p string, fi fs.FileInfo) bool {
	if !fi.Mode().IsRegular() || fi.Size() > 64 {
		return false
	}
	b, err := os.ReadFile(p)
	return err == nil && ValidVersion(strings.TrimSpace(string(b)))
}

// CopyMarker is the file a copied folder holds: the files paperbundle
// wrote there, one path a line, so the next copy knows what it may
// replace.
const CopyMarker = ".paperbundle-copy"

// CheckCopyTarget reports whether dst may receive a copy: it does not
// exist, is empty, or holds only files a previous copy wrote (listed in
// its CopyMarker). Anything else is refused, naming a file that is not
// ours, so a manuscript's own files are never overwritten.
func CheckCopyTarget(dst string) error {
	ours, err := copiedFiles(dst)
	if err != nil {
		return err
	}
	var foreign string
	err = filepath.WalkDir(dst, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) && p == dst {
				return fs.SkipAll
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dst, p)
		rel = filepath.ToSlash(rel)
		if rel != CopyMarker && !ours[rel] {
			foreign = rel
			return fs.SkipAll
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("paper.copy_to: %w", err)
	}
	if foreign != "" {
		return fmt.Errorf("paper.copy_to: %s holds %s, which paperbundle did not write there; expected an empty folder or one paperbundle copied to (choose another folder, or move that file)", dst, foreign)
	}
	return nil
}

// copiedFiles reads dst's CopyMarker (none: no files).
func copiedFiles(dst string) (map[string]bool, error) {
	f, err := os.Open(filepath.Join(dst, CopyMarker))
	if errors.Is(err, fs.ErrNotExist) {
		return map[string]bool{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("paper.copy_to: %w", err)
	}
	defer f.Close()
	out := map[string]bool{}
	sc := bufio.NewScanner(io.LimitReader(f, 1<<20))
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out[line] = true
		}
	}
	return out, sc.Err()
}

// CopyFolder copies the files of src (a folder of the bundle) to dst
// after CheckCopyTarget allows it: files of an earlier copy that src no
// longer has are removed, every file of src is written, and the marker
// lists them.
func CopyFolder(src, dst string) error {
	if err := CheckCopyTarget(dst); err != nil {
		return err
	}
	old, err := copiedFiles(dst)
	if err != nil {
		return err
	}
	var files []string
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		files = append(files, filepath.ToSlash(rel))
		return nil
	})
	if err != nil {
		return fmt.Errorf("paper.copy_to: %w", err)
	}
	sort.Strings(files)
	now := map[string]bool{}
	for _, rel := range files {
		now[rel] = true
		if err := copyFile(filepath.Join(src, filepath.FromSlash(rel)), filepath.Join(dst, filepath.FromSlash(rel))); err != nil {
			return fmt.Errorf("paper.copy_to: %w", err)
		}
	}
	for rel := range old {
		if !now[rel] {
			_ = os.Remove(filepath.Join(dst, filepath.FromSlash(rel)))
		}
	}
	marker := "# written by paperbundle: the files it copied here; it replaces only these\n" + strings.Join(files, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dst, CopyMarker), []byte(marker), 0o644); err != nil {
		return fmt.Errorf("paper.copy_to: %w", err)
	}
	return nil
}

// copyFile writes src's bytes to dst (through a temporary file renamed
// into place), making dst's folder.
func copyFile(src, dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}
