package plot

import (
	"fmt"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// paint draws the figure on c. The figure is laid out once, on gonum's
// recorder, the first time: ticks, text measures, legend and panel
// layout, glyph boxes; each canvas (SVG, page markup, PDF, PNG) then gets
// the same calls, in the same order, as if the figure were drawn on it.
func (f *figure) paint(c vg.Canvas) {
	if f.clampLines {
		c = lineClamp{c}
	}
	if f.rec == nil {
		f.rec = &recording{w: f.w, h: f.h}
		f.draw(draw.New(f.rec))
	}
	if err := f.rec.ReplayOn(c); err != nil {
		// The drawing uses the Liberation fonts only, which the
		// recorder's font cache holds: an unknown font is a bug.
		panic(fmt.Errorf("plot: replaying a figure: %w", err))
	}
}

// recording is gonum's recorder with the figure's size (draw.New asks
// the canvas for it). It keeps the paths it is given: the drawing never
// changes a path once stroked or filled.
type recording struct {
	recorder.Canvas
	w, h vg.Length
}

// Size implements vg.CanvasSizer.
func (r *recording) Size() (w, h vg.Length) { return r.w, r.h }
