package xlsx

import (
	"os"
	"testing"
)

func TestScratch(t *testing.T) {
	b := render(t, workbook(t, 25, 10))
	os.WriteFile("/tmp/xl/fixture.xlsx", b, 0o644)
}
