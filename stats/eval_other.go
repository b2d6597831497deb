//go:build !amd64

package stats

func cumulate(w []int32, idx []int32, dst []int64) { cumulateGo(w, idx, dst) }
