package toolid

import (
	"runtime/debug"
	"testing"
)

func TestEqual(t *testing.T) {
	yes, no := true, false
	base := ID{Version: "(devel)", Revision: "abc", Modified: &no, SHA256: "11"}
	for _, tc := range []struct {
		name string
		a, b ID
		want bool
	}{
		{"same build", base, base, true},
		{"same version, another executable", base, ID{Version: "(devel)", Revision: "abc", Modified: &no, SHA256: "22"}, false},
		{"modified flag differs", base, ID{Version: "(devel)", Revision: "abc", Modified: &yes, SHA256: "11"}, false},
		{"one stamped, one not", base, ID{Version: "(devel)", SHA256: "11"}, false},
		{"revision differs", base, ID{Version: "(devel)", Revision: "abd", Modified: &no, SHA256: "11"}, false},
		{"no executable hash equals nothing", ID{Version: "(devel)"}, ID{Version: "(devel)"}, false},
		{"not recorded", ID{}, ID{}, false},
	} {
		if got := tc.a.Equal(tc.b); got != tc.want {
			t.Errorf("%s: Equal = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestFromBuildInfoAndString(t *testing.T) {
	bi := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	id := FromBuildInfo(bi)
	id.SHA256 = "ffffffffffffffffffffffff00"
	if got, want := id.String(), "version (devel), revision 0123456789ab (modified), executable sha256 ffffffffffff"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	if got, want := (ID{}).String(), "not recorded"; got != want {
		t.Errorf("zero String = %q, want %q", got, want)
	}
	if Self().SHA256 == "" {
		t.Error("Self has no executable sha256")
	}
}
