package templates

import (
	"fmt"
	"html/template"

	"paperbundle/figures/plot"
)

// inlineSVG is the markup of a static figure for the page, labelled by
// the element labelID: figures/plot writes it, the page inlines it as it
// is (see plot.InlineSVG), with its styles as classes of the page.
func inlineSVG(svg *plot.InlineSVG, labelID string, classes *styleClasses) (template.HTML, error) {
	if svg == nil {
		return "", fmt.Errorf("svg: no page markup for the figure")
	}
	return template.HTML(svg.Markup(labelID, &classes.Styles)), nil
}

// styleClasses are the classes of the styles of the page's figures, in
// order of first use (see plot.Styles).
type styleClasses struct{ plot.Styles }

// css is the stylesheet of the classes, for the figures' static form.
func (c *styleClasses) css() (string, error) { return c.CSS(".fig-static") }
