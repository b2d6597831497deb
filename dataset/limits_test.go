package dataset

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

// firstError is the first input error of a Load, or nil.
func firstError(err error) *InputError {
	var el ErrorList
	if errors.As(err, &el) && len(el) > 0 {
		return el[0]
	}
	var ie *InputError
	if errors.As(err, &ie) {
		return ie
	}
	return nil
}

// TestDevZeroInput gives /dev/zero as every kind of input: each Load ends
// within seconds with an input error at line 1 (its one line passes
// MaxLineBytes after 16 MiB), not an endless read.
func TestDevZeroInput(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	run := writeTemp(t, "run.txt", "q1 Q0 d1 1 0.5 x\n")
	qrels := writeTemp(t, "qrels.txt", "q1 0 d1 1\n")
	cases := map[string]Spec{
		"csv":   {Systems: []SystemSpec{{Name: "a", Input: "/dev/zero", Format: "csv"}}},
		"jsonl": {Systems: []SystemSpec{{Name: "a", Input: "/dev/zero", Format: "jsonl"}}},
		"run":   {Systems: []SystemSpec{{Name: "a", Input: "/dev/zero", Format: "trec"}}, Qrels: qrels},
		"qrels": {Systems: []SystemSpec{{Name: "a", Input: run, Format: "trec"}}, Qrels: "/dev/zero"},
	}
	for name, spec := range cases {
		start := time.Now()
		_, err := Load(spec)
		ie := firstError(err)
		if ie == nil || ie.File != "/dev/zero" || ie.Line != 1 || !strings.Contains(ie.Msg, "line longer than 16 MiB") {
			t.Errorf("%s from /dev/zero: %v, want /dev/zero:1: line longer than 16 MiB", name, err)
		}
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("%s from /dev/zero: took %v", name, d)
		}
	}
}

func writeTemp(t *testing.T, name, data string) string {
	t.Helper()
	p := t.TempDir() + "/" + name
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestLimitReader: with the maximums lowered, a line one byte too long is
// reported at its line (streamed, and read whole), and an input one byte
// too large as a whole-file error; lines of exactly the maximum pass.
func TestLimitReader(t *testing.T) {
	defer func(l, n int64) { maxLineBytes, maxInputBytes = l, n }(maxLineBytes, maxInputBytes)
	maxLineBytes, maxInputBytes = 10, 40
	ok := "0123456789\n0123456789\r\n" // the \r counts: 11 bytes before \n
	l := newLimitReader("f", iotestReader(ok))
	_, err := io.ReadAll(l)
	if ie, _ := err.(*InputError); ie == nil || ie.Line != 2 || !strings.Contains(ie.Msg, "line longer than 10 bytes") {
		t.Errorf("line of 11 bytes: %v, want f:2: line longer", err)
	}
	if err := newLimitReader("f", nil).checkWhole([]byte("0123456789\n0123456789")); err != nil {
		t.Errorf("lines of exactly the maximum: %v", err)
	}
	if err := newLimitReader("f", nil).checkWhole([]byte("a\nb\nc\n01234567890")); err == nil || err.(*InputError).Line != 4 {
		t.Errorf("last line too long, read whole: %v, want line 4", err)
	}
	big := strings.Repeat("012345678\n", 5)
	_, err = io.ReadAll(newLimitReader("f", iotestReader(big)))
	if ie, _ := err.(*InputError); ie == nil || ie.Line != 0 || !strings.Contains(ie.Msg, "larger than 40 bytes") {
		t.Errorf("50-byte input: %v, want larger than 40 bytes", err)
	}
}

// iotestReader returns a reader that gives 3 bytes per Read, so that
// lines span reads.
func iotestReader(s string) io.Reader { return &smallReads{s: s} }

type smallReads struct{ s string }

func (r *smallReads) Read(p []byte) (int, error) {
	if r.s == "" {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 3)], r.s)
	r.s = r.s[n:]
	return n, nil
}

// TestListMaximum: a candidate list of MaxListItems+1 items is refused
// at its cell.
func TestListMaximum(t *testing.T) {
	items := make([]string, MaxListItems+1)
	scores := make([]string, MaxListItems+1)
	for i := range items {
		items[i] = fmt.Sprint("c", i)
		scores[i] = "0.5"
	}
	csv := "post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores\n" +
		"P1,A.1,0,eval,c1," + strings.Join(items, ";") + "," + strings.Join(scores, ";") + "\n"
	_, err := load(Spec{Systems: []SystemSpec{{Name: "a", Input: "t.csv"}}}, memFiles(map[string]string{"t.csv": csv}))
	ie := firstError(err)
	if ie == nil || ie.Line != 2 || !strings.Contains(ie.Msg, fmt.Sprintf("more than %d items", MaxListItems)) {
		t.Errorf("list of %d items: %v", MaxListItems+1, err)
	}
}

// TestControlCharactersInIDs: NUL, ESC, VT, DEL and C1 characters in an
// id are refused at the cell (CSV, JSONL) or the character (TREC), so no
// output carries a raw escape sequence.
func TestControlCharactersInIDs(t *testing.T) {
	head := "post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores\n"
	cases := []struct {
		name, file, data, want string
	}{
		{"ESC in post_id", "t.csv", head + "P\x1b[31m1,A.1,0,eval,s1,s1;s2,0.9;0.1\n",
			`t.csv:2:1: post_id is "P\x1b[31m1": a control character (U+001B) at character 2`},
		{"VT in criterion_id", "t.csv", head + "P1,A\v1,0,eval,s1,s1;s2,0.9;0.1\n",
			`t.csv:2:4: criterion_id is "A\v1": a control character (U+000B) at character 2`},
		{"NUL in a candidate", "t.csv", head + "P1,A.1,0,eval,s1,s1;s\x002,0.9;0.1\n",
			`t.csv:2:18: candidate_uids item 2 is "s\x002": a control character (U+0000) at character 2`},
		{"C1 in gold", "t.csv", head + "P1,A.1,0,eval,s\u009b1,s1;s2,0.9;0.1\n",
			`gold_uids item 1 is "s\u009b1": a control character (U+009B) at character 2`},
		{"DEL in JSONL", "t.jsonl", `{"post_id":"P\u007f1","gold_uids":["s1"],"candidate_uids":["s1"],"candidate_scores":[1]}` + "\n",
			`post_id is "P\x7f1": a control character (U+007F) at character 2`},
	}
	for _, c := range cases {
		_, err := load(Spec{Systems: []SystemSpec{{Name: "a", Input: c.file}}}, memFiles(map[string]string{c.file: c.data}))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant %s", c.name, err, c.want)
		}
	}
	run := "q1 Q0 d\x1b1 1 0.5 x\n"
	_, err := load(Spec{Systems: []SystemSpec{{Name: "a", Input: "r.txt", Format: "trec"}}, Qrels: "q.txt"},
		memFiles(map[string]string{"r.txt": run, "q.txt": "q1 0 d1 1\n"}))
	if err == nil || !strings.Contains(err.Error(), `r.txt:1:8: the line is "q1 Q0 d\x1b1 1 0.5 x": a control character (U+001B) at character 8`) {
		t.Errorf("ESC in a TREC docno: %v", err)
	}
}

// TestUTF16Input: a UTF-16 input, with or without a byte order mark, is
// named as such with the conversion to run, not reported as bad UTF-8.
func TestUTF16Input(t *testing.T) {
	text := "post_id,gold_uids,candidate_uids,candidate_scores\nP1,s1,s1,1\n"
	le, be := []byte{0xff, 0xfe}, []byte{}
	for _, r := range text {
		le = append(le, byte(r), 0)
		be = append(be, 0, byte(r))
	}
	for name, data := range map[string][]byte{"UTF-16 little-endian (with a byte order mark)": le, "UTF-16 big-endian": be} {
		_, err := load(Spec{Systems: []SystemSpec{{Name: "a", Input: "t.csv"}}}, memFiles(map[string]string{"t.csv": string(data)}))
		want := "t.csv:1:1: the file is " + name + ", expected UTF-8 text (convert it, e.g. iconv -f UTF-16 -t UTF-8"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %s", name, err, want)
		}
	}
}

// TestFieldMaximum: a quoted CSV field that runs over many short lines
// past MaxFieldBytes is refused at its row (each line is under the line
// maximum).
func TestFieldMaximum(t *testing.T) {
	line := strings.Repeat("x", 1000) + "\n"
	csv := "post_id,criterion_id,fold,split,gold_uids,candidate_uids,candidate_scores\n" +
		"P1,A.1,0,eval,s1,\"s1" + strings.Repeat(line, MaxFieldBytes/len(line)+1) + "\",0.5\n"
	_, err := load(Spec{Systems: []SystemSpec{{Name: "a", Input: "t.csv"}}}, memFiles(map[string]string{"t.csv": csv}))
	ie := firstError(err)
	if ie == nil || ie.Line != 2 || !strings.Contains(ie.Msg, "field 6 is longer than 16 MiB, the maximum of a field") {
		t.Errorf("a 16 MiB quoted field: %v", err)
	}
}
