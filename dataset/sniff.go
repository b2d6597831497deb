package dataset

import (
	"bufio"
	"bytes"
)

// sniffBytes is how much of a text input sniffText looks at.
const sniffBytes = 64 << 10

// sniffText looks at the first bytes of a text input (after gzip, for a
// name ending in .gz): the magic bytes of a binary file decide before any
// text heuristic would give advice about encodings or separators, and line
// ends of CR alone, which a parser would read as one long line, are named.
// gz says the bytes were decompressed.
func sniffText(name string, br *bufio.Reader, gz bool) *InputError {
	head, _ := br.Peek(sniffBytes) // fewer at the end of a short file
	switch {
	case bytes.HasPrefix(head, []byte("PAR1")):
		return &InputError{File: name, Line: 1, Column: 1, Msg: "this is a Parquet file (it starts with PAR1), expected text for this name: name it .parquet, or set format: parquet on the system"}
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}) && gz:
		return &InputError{File: name, Line: 1, Column: 1, Msg: "the file is compressed twice (gzip inside gzip), expected one gzip layer: decompress it once (gunzip) and keep the name ending in .gz"}
	case bytes.HasPrefix(head, []byte{0x1f, 0x8b}):
		return &InputError{File: name, Line: 1, Column: 1, Msg: "this is a gzip-compressed file (it starts with 1f 8b), expected text for this name: add .gz to its name (such as runs.csv.gz), or decompress it"}
	case bytes.HasPrefix(head, []byte("PK\x03\x04")):
		return &InputError{File: name, Line: 1, Column: 1, Msg: "this is a zip archive (an .xlsx workbook is one), expected text: export the sheet as CSV"}
	}
	if cr := bytes.IndexByte(head, '\r'); cr >= 0 && bytes.IndexByte(head, '\n') < 0 {
		return &InputError{File: name, Line: 1, Column: cr + 1, Msg: "the lines end with CR alone (classic Mac OS line ends), expected LF or CRLF line ends: convert the file, e.g. tr '\\r' '\\n' < old > new"}
	}
	return nil
}
