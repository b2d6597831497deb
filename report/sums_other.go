//go:build !amd64

package report

const useAVX2 = false

func weighSparse16(acc *[16]float64, kf []float64, grp []int32, val []float64, g0 int) {
	panic("report: weighSparse16 without AVX2")
}

func weighWords16(acc *[16]uint64, ki []uint64, p []uint64, W int) {
	panic("report: weighWords16 without AVX2")
}
