package dataset

import "testing"

// TestGoldIsASet: two systems agree on a query's gold when they hold the
// same ids with the same grades, in any order, in the wide and in the
// long layout (a long table sorted by each system's scores lists the gold
// rows in another order). The same grade on another id still differs.
func TestGoldIsASet(t *testing.T) {
	wide := "post_id,gold_uids,gold_rels,candidate_uids,candidate_scores\n"
	long := "post_id,candidate_uid,score,rel\n"
	spec := Spec{Systems: []SystemSpec{{Name: "a", Input: "a.csv"}, {Name: "b", Input: "b.csv"}}}
	for _, tc := range []struct {
		name string
		a, b string
	}{
		{"wide", wide + "P1,g;h,2;1,g;h;x,3;2;1\n", wide + "P1,h;g,1;2,x;h;g,3;2;1\n"},
		{"long", long + "P1,g,3,2\nP1,h,2,1\nP1,x,1,0\n", long + "P1,x,3,0\nP1,h,2,1\nP1,g,1,2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := load(spec, memFiles(map[string]string{"a.csv": tc.a, "b.csv": tc.b}))
			if err != nil {
				t.Fatalf("the same gold in another order was refused: %v", err)
			}
			for _, q := range d.Queries {
				grades := map[string]int{}
				for k, g := range q.Gold {
					grades[g] = q.GoldRels[k]
				}
				if len(grades) != 2 || grades["g"] != 2 || grades["h"] != 1 {
					t.Errorf("gold %v grades %v, want g:2 h:1", q.Gold, q.GoldRels)
				}
			}
		})
	}
	_, err := load(spec, memFiles(map[string]string{"a.csv": wide + "P1,g;h,2;1,g;h,3;2\n", "b.csv": wide + "P1,h;g,2;1,g;h,3;2\n"}))
	if err == nil {
		t.Error("gold with the grades swapped between ids was accepted")
	}
}
