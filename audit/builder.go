package audit

// builder writes the scan text of a file: each byte it adds remembers the
// offset in the original it stands for, so that what is dropped (braces,
// commands, comments) leaves positions right.
type builder struct {
	text []byte
	pos  []int32
}

func (b *builder) add(c byte, at int) {
	b.text = append(b.text, c)
	b.pos = append(b.pos, int32(at))
}

// space adds one blank unless the text already ends with one.
func (b *builder) space(at int) {
	if n := len(b.text); n > 0 && (b.text[n-1] == ' ' || b.text[n-1] == '\n') {
		return
	}
	b.add(' ', at)
}

// mark adds a row end or a cell separator.
func (b *builder) mark(c byte, at int) { b.add(c, at) }

func (b *builder) source(file string, orig []byte) *source {
	return &source{file: file, orig: orig, text: b.text, pos: b.pos}
}
