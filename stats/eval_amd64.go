package stats

// cumulate is cumulateGo in assembly (eval_amd64.s). dst must hold
// len(idx) values and every idx[i] must index w.
//
//go:noescape
func cumulate(w []int32, idx []int32, dst []int64)
