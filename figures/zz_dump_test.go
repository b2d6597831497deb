package figures

import (
	"fmt"
	"os"
	"testing"
)

func TestZZDump(t *testing.T) {
	r := fixture()
	fmt.Println(Names(r))
	m := map[string][]byte{}
	if err := Render(sinkFunc(func(n string, b []byte) { m[n] = b }), r); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll("/tmp/figdemo/fix", 0o755)
	for n, b := range m {
		os.WriteFile("/tmp/figdemo/fix/"+n[len("figures/"):], b, 0o644)
	}
}

type sinkFunc func(string, []byte)

func (f sinkFunc) Add(n string, b []byte) { f(n, b) }
