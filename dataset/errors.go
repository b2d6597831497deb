package dataset

import "fmt"

// collector gathers input errors until MaxErrors of them are held.
type collector struct {
	list ErrorList
}

// full reports whether no more errors are accepted: parsers stop reading
// when it is true.
func (c *collector) full() bool { return len(c.list) >= MaxErrors }

// add records an error at file:line:col unless the list is full.
func (c *collector) add(file string, line, col int, format string, args ...any) {
	c.push(&InputError{File: file, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)})
}

// consistency records a failed hard consistency check: a post evaluated in
// two folds, a post with both eval and tune rows in a fold, or gold that
// differs between systems.
func (c *collector) consistency(file string, line, col int, format string, args ...any) {
	c.push(&InputError{File: file, Line: line, Column: col, Msg: fmt.Sprintf(format, args...), Consistency: true})
}

func (c *collector) push(e *InputError) {
	if c.full() {
		return
	}
	c.list = append(c.list, e)
}
