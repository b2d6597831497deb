//go:build !amd64

package engine

// haveAVX2 is false: the Go loops do all the work.
const haveAVX2 = false

func weighSparse16(acc *[16]float64, kf []float64, grp []int32, val []float64, g0 int) {
	panic("engine: weighSparse16 without AVX2")
}

func weighWords16(acc *[16]uint64, ki []uint64, p []uint64, W int) {
	panic("engine: weighWords16 without AVX2")
}

func axpyRows16(acc []float64, stride int, row []float64, k *[16]float64) {
	panic("engine: axpyRows16 without AVX2")
}

func axpyWords16(acc []uint64, stride int, row []uint64, k *[16]uint64) {
	panic("engine: axpyWords16 without AVX2")
}
