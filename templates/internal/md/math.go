package md

import (
	"html"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// maxTeX bounds the search for a closing '$', so that many unclosed
// dollars cost linear time.
const maxTeX = 1000

var kindMath = ast.NewNodeKind("Math")

// mathNode is an inline math span $TeX$.
type mathNode struct {
	ast.BaseInline
	TeX string
}

func (n *mathNode) Kind() ast.NodeKind { return kindMath }

func (n *mathNode) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"TeX": n.TeX}, nil)
}

// mathParser reads $TeX$: a '$' followed by a non-space, up to the next
// '$' that follows a non-space and is not followed by a digit, within the
// paragraph and maxTeX bytes. "\$" is a literal dollar, outside math (as a
// Markdown escape) and inside. A span holding a backtick is not math, so a
// code span that starts inside it wins; "$$" stays text. Line breaks in the
// span become spaces.
type mathParser struct{}

func (mathParser) Trigger() []byte { return []byte{'$'} }

func (mathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if len(line) > 1 && line[1] == '$' {
		n := 2
		for n < len(line) && line[n] == '$' {
			n++
		}
		block.Advance(n)
		return ast.NewTextSegment(seg.WithStop(seg.Start + n))
	}
	if len(line) < 2 || util.IsSpace(line[1]) {
		return nil
	}
	block.Advance(1)
	var tex []byte
	for {
		line, _ := block.PeekLine()
		if line == nil {
			return nil
		}
		line = util.TrimRightSpace(line)
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '`':
				return nil
			case c == '\\' && i+1 < len(line):
				tex = append(tex, c)
				i++
			case c == '$' && !util.IsSpace(tex[len(tex)-1]) && (i+1 == len(line) || !isDigit(line[i+1])):
				block.Advance(i + 1)
				return &mathNode{TeX: string(tex)}
			}
			tex = append(tex, line[i])
			if len(tex) > maxTeX {
				return nil
			}
		}
		tex = append(tex, ' ')
		block.AdvanceLine()
	}
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// renderMath writes the generated MathML of the span, or, for TeX that is
// not in the table, the span as escaped code.
func renderMath(w util.BufWriter, src []byte, n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	tex := n.(*mathNode).TeX
	if m, ok := mathML[tex]; ok {
		_, _ = w.WriteString(m)
	} else {
		_, _ = w.WriteString(`<code class="tex">` + html.EscapeString("$"+tex+"$") + `</code>`)
	}
	return ast.WalkSkipChildren, nil
}
