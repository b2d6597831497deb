package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestPointLatest: latest is a relative link to the newest complete
// version, replaced on the next build; a folder named latest that is not
// ours is left alone with an error.
func TestPointLatest(t *testing.T) {
	root := t.TempDir()
	for _, v := range []string{"v1", "v2", "v10"} {
		os.MkdirAll(filepath.Join(root, v), 0o755)
		os.WriteFile(filepath.Join(root, v, ManifestName), []byte("{}"), 0o644)
		if err := PointLatestNewest(root); err != nil {
			t.Fatal(err)
		}
		if to, err := os.Readlink(filepath.Join(root, LatestName)); err != nil || to != v {
			t.Errorf("after %s: latest -> %q (%v), want %s", v, to, err, v)
		}
	}
	os.MkdirAll(filepath.Join(root, "v3"), 0o755) // incomplete (no manifest), and older
	if err := PointLatestNewest(root); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(root, LatestName, ManifestName)); err != nil || string(b) != "{}" {
		t.Errorf("latest/manifest.json reads %q, %v", b, err)
	}
	// The text form is ours too and is replaced.
	os.Remove(filepath.Join(root, LatestName))
	os.WriteFile(filepath.Join(root, LatestName), []byte("v2\n"), 0o644)
	if err := PointLatest(root, "v10"); err != nil {
		t.Errorf("replacing the text pointer: %v", err)
	}
	other := t.TempDir()
	os.MkdirAll(filepath.Join(other, LatestName), 0o755)
	if err := PointLatest(other, "v1"); err == nil || !strings.Contains(err.Error(), "not paperbundle's pointer") {
		t.Errorf("a folder named latest: %v, want it left alone", err)
	}
}

// TestCopyFolder: a copy into a new folder, a second copy that drops a
// file the source no longer has, and a folder with a file of the author's
// refused with its name.
func TestCopyFolder(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "paper")
	os.MkdirAll(filepath.Join(src, "tables"), 0o755)
	os.WriteFile(filepath.Join(src, "numbers.tex"), []byte("1"), 0o644)
	os.WriteFile(filepath.Join(src, "tables", "old.tex"), []byte("old"), 0o644)
	if err := CopyFolder(src, dst); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(src, "tables", "old.tex"))
	os.WriteFile(filepath.Join(src, "numbers.tex"), []byte("2"), 0o644)
	if err := CopyFolder(src, dst); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "numbers.tex")); string(b) != "2" {
		t.Errorf("numbers.tex = %q after the second copy, want 2", b)
	}
	if _, err := os.Stat(filepath.Join(dst, "tables", "old.tex")); err == nil {
		t.Error("a file the source dropped stays in the copy")
	}
	os.WriteFile(filepath.Join(dst, "tables", "mine.tex"), []byte("the author's"), 0o644)
	err := CopyFolder(src, dst)
	if err == nil || !strings.Contains(err.Error(), "tables/mine.tex, which paperbundle did not write") {
		t.Errorf("a folder with the author's file: %v, want it refused naming the file", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "tables", "mine.tex")); string(b) != "the author's" {
		t.Error("the author's file was touched")
	}
}
