package engine

import "golang.org/x/sys/cpu"

// haveAVX2 says whether the CPU has the AVX2 kernels below; a SumMatrix
// made with avx2 uses them then. Their lanes do what the scalar loop does,
// a multiply rounded and then an add rounded (no fused multiply-add), so
// the sums are the same bits either way. Read only.
var haveAVX2 = cpu.X86.HasAVX2

// weighSparse16 is weighSparse for R = 16, in AVX2 (sums_amd64.s): the
// sixteen sums in four registers. kf must hold (grp[e]-g0+1)·16 values
// for every e; len(val) must be at least len(grp).
//
//go:noescape
func weighSparse16(acc *[16]float64, kf []float64, grp []int32, val []float64, g0 int)

// weighWords16 adds ki[b·16 + r]·p[b·W] to acc[r] for b < len(ki)/16 and
// r < 16, modulo 2⁶⁴ as Go's uint64 product is, in AVX2 (sums_amd64.s).
// Every ki must be below 2³² (they are multiplicities); p must hold
// (len(ki)/16 - 1)·W + 1 words.
//
//go:noescape
func weighWords16(acc *[16]uint64, ki []uint64, p []uint64, W int)

// axpyRows16 adds k[r]·row to the row of replicate r of acc (it starts at
// acc[r·stride]), for the 16 replicates with k[r] != 0: the dense float
// columns of a group, in AVX2. len(acc) must be at least
// 15·stride + len(row).
//
//go:noescape
func axpyRows16(acc []float64, stride int, row []float64, k *[16]float64)

// axpyWords16 is axpyRows16 for packed words, modulo 2⁶⁴; every k[r]
// must be below 2³².
//
//go:noescape
func axpyWords16(acc []uint64, stride int, row []uint64, k *[16]uint64)
