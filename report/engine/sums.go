package engine

import (
	"math"
	"paperbundle/internal/par"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// SumMatrix is the groups x columns matrix of per-group column sums that
// every bootstrap replicate weighs by its group multiplicities: the sums of
// replicate r are Σ_g cnt_r[g] · S[g]. This is the bulk of the bootstrap's
// arithmetic (B x groups x columns), so it is stored for speed:
//
//   - columns whose every group sum is a non-negative integer (counts:
//     confusion cells, bin counts, hits) are packed as 16- or 32-bit lanes
//     of uint64 words, four or two columns per word, when the largest sum a
//     replicate can reach (groups x the largest group value; the
//     multiplicities of a replicate add up to the number of groups) fits
//     the lane. One integer multiply-add then weighs four columns, exactly:
//     a lane never carries into the next;
//
//   - the other columns stay float64 and are summed in group order, so
//     each sum is the same floating-point number as a plain
//     Σ_g cnt[g]·S[g] loop gives (integer sums are exact either way);
//
//   - columns that are zero for most groups (a per-criterion column: a
//     post has one query of each criterion, and few are positive; every
//     sliced column under unit: query) are kept as sparse lists, so their
//     cost is their non-zero entries, not groups x slices.
//
// Replicates are weighed in batches of up to Batch. The multiplicities
// of a batch are transposed so that a group's values for the batch are
// adjacent; each column (a float column, a packed word, a sparse list) is
// then read once per batch, group by group, into eight replicates' sums
// held in registers. Every path adds a column's terms in group order, and
// a zero multiplicity adds +0 (the values of these paths are finite), which
// changes no sum, so each sum is the same number whichever path holds its
// column. Columns with a non-finite value take a plain loop that skips the
// groups not drawn (0 · Inf is NaN).
type SumMatrix struct {
	nG    int
	nC    int       // columns, as the statistics index them
	fcol  []int     // column of each float column
	dense []float64 // G x len(fcol)
	nW    int       // packed words per group
	words []uint64  // G x W
	lanes []lane    // where each packed column is
	scol  []int     // column of each sparse column
	// Sparse column q's non-zero entries are grp/val[start[q]:start[q+1]],
	// in group order.
	start []int32
	grp   []int32
	val   []float64
	xcol  []int       // column of each column with a non-finite value
	inf   [][]float64 // its values by group
	alias [][2]int    // column [0] equals column [1] (weighed once)
	avx2  bool        // weigh full batches with the AVX2 kernels
}

type lane struct {
	col, word int
	shift     uint
	mask      uint64
}

// NewSumMatrix packs cols (cols[j][g]: the sum of column j over group g).
// What decides each column's path (its hash, finiteness, non-zero count,
// integer bound) and the sparse lists are computed on all cores; the
// choices are made in column order. With avx2, Weigh takes the AVX2
// kernels for full batches where the CPU has them (HasAVX2); without, the
// Go loops: the sums are the same bits either way.
func NewSumMatrix(G int, cols [][]float64, avx2 bool) *SumMatrix {
	m := &SumMatrix{nG: G, nC: len(cols), avx2: avx2 && haveAVX2}
	info := columnInfos(G, cols)
	var c16, c32 []int
	byHash := map[uint64][]int{}
	for j, c := range cols {
		in := &info[j]
		dup := -1
		for _, i := range byHash[in.hash] {
			if slices.Equal(cols[i], c) {
				dup = i
				break
			}
		}
		if dup >= 0 {
			m.alias = append(m.alias, [2]int{j, dup})
			continue
		}
		byHash[in.hash] = append(byHash[in.hash], j)
		if !in.finite {
			m.xcol = append(m.xcol, j)
			m.inf = append(m.inf, c)
			continue
		}
		if 4*in.nz < G {
			m.scol = append(m.scol, j)
			continue
		}
		switch bound := in.max * float64(G); {
		case in.integer && bound < 1<<16:
			c16 = append(c16, j)
		case in.integer && bound < 1<<32:
			c32 = append(c32, j)
		default:
			m.fcol = append(m.fcol, j)
		}
	}
	for k, j := range c16 {
		m.lanes = append(m.lanes, lane{col: j, word: k / 4, shift: uint(16 * (k % 4)), mask: 1<<16 - 1})
	}
	w16 := (len(c16) + 3) / 4
	for k, j := range c32 {
		m.lanes = append(m.lanes, lane{col: j, word: w16 + k/2, shift: uint(32 * (k % 2)), mask: 1<<32 - 1})
	}
	m.nW = w16 + (len(c32)+1)/2
	m.words = make([]uint64, G*m.nW)
	for _, l := range m.lanes {
		for g, v := range cols[l.col] {
			m.words[g*m.nW+l.word] |= uint64(v) << l.shift
		}
	}
	if len(m.fcol) < fewDense {
		// A handful of dense columns costs less in the sparse lists than a
		// pass per group and replicate.
		par.Jobs(0, len(m.fcol), func() func(int) {
			return func(q int) {
				in := &info[m.fcol[q]]
				in.grp, in.val = nonZeros(cols[m.fcol[q]], in.nz)
			}
		})
		m.scol = append(m.scol, m.fcol...)
		m.fcol = nil
	}
	m.start = make([]int32, len(m.scol)+1)
	for q, j := range m.scol {
		m.start[q+1] = m.start[q] + int32(len(info[j].grp))
	}
	m.grp = make([]int32, 0, m.start[len(m.scol)])
	m.val = make([]float64, 0, m.start[len(m.scol)])
	for _, j := range m.scol {
		m.grp = append(m.grp, info[j].grp...)
		m.val = append(m.val, info[j].val...)
	}
	nf := len(m.fcol)
	m.dense = make([]float64, G*nf)
	for q, j := range m.fcol {
		for g, v := range cols[j] {
			m.dense[g*nf+q] = v
		}
	}
	return m
}

// colInfo is what decides the path of one column of a SumMatrix.
type colInfo struct {
	hash    uint64
	finite  bool
	nz      int
	integer bool    // every value a non-negative integer
	max     float64 // the largest value, when integer
	grp     []int32 // the non-zero entries, when few
	val     []float64
}

// columnInfos computes the colInfo of each column of cols (G groups), on
// all cores.
func columnInfos(G int, cols [][]float64) []colInfo {
	info := make([]colInfo, len(cols))
	par.Jobs(0, len(cols), func() func(int) {
		return func(j int) {
			c, in := cols[j], &info[j]
			// Systems share many columns (counts that depend on the
			// gold labels only): each distinct column is weighed once.
			var h uint64 = 14695981039346656037
			in.finite, in.integer = true, true
			for _, v := range c {
				h = (h ^ math.Float64bits(v)) * 1099511628211
				if v != 0 {
					in.nz++
				}
				if math.IsInf(v, 0) || math.IsNaN(v) {
					in.finite = false
				}
				if in.integer && !(v >= 0 && v == math.Trunc(v)) {
					in.integer = false
				}
				if in.integer {
					in.max = max(in.max, v)
				}
			}
			in.hash = h
			if in.finite && 4*in.nz < G {
				in.grp, in.val = nonZeros(c, in.nz)
			}
		}
	})
	return info
}

// nonZeros lists the nz non-zero entries of c, in group order.
func nonZeros(c []float64, nz int) (grp []int32, val []float64) {
	grp, val = make([]int32, 0, nz), make([]float64, 0, nz)
	for g, v := range c {
		if v != 0 {
			grp = append(grp, int32(g))
			val = append(val, v)
		}
	}
	return grp, val
}

// fewDense is the number of dense float columns below which they join the
// sparse lists.
const fewDense = 16

// fewWords is the number of packed words per group up to which they are
// weighed word by word rather than by blocks.
const fewWords = 8

// block is the number of matrix columns (float64 or packed words) one
// pass over the groups reads: a batch's accumulators for them stay in L1.
const block = 128

// Batch is the largest number of replicates Weigh takes at once.
const Batch = 16

// Scratch is one worker's accumulators for a batch of replicates (made by
// SumMatrix.Scratch).
type Scratch struct {
	f   []float64 // float column q of replicate r: f[r*len(fcol)+q]
	p   []uint64  // packed word w of replicate r: p[r*W+w]
	s   []float64 // sparse column q of replicate r: s[q*R+r]
	nR  int       // the replicates of the last weigh
	x   []float64 // non-finite column q of replicate r: x[r*len(xcol)+q]
	kf  []float64 // a block's multiplicities by group: kf[(g-g0)*R+r]
	ki  []uint64  // the same as integers
	cur []int32   // each sparse column's next entry
}

// Scratch returns accumulators for batches of up to batch replicates.
func (m *SumMatrix) Scratch(batch int) *Scratch {
	s := &Scratch{f: make([]float64, batch*len(m.fcol)), p: make([]uint64, batch*m.nW),
		s: make([]float64, batch*len(m.scol)), x: make([]float64, batch*len(m.xcol))}
	nb := min(m.nG, groupBlock)
	if len(m.scol) > 0 {
		s.cur = make([]int32, len(m.scol))
	}
	// The transposed multiplicities of a block (for the sparse columns,
	// the few packed words and the AVX2 kernels of the dense ones), 64 KB
	// each at most: made whichever path Weigh takes.
	if len(m.scol) > 0 || len(m.fcol) > 0 {
		s.kf = make([]float64, batch*nb)
	}
	if m.nW > 0 {
		s.ki = make([]uint64, batch*nb)
	}
	return s
}

// Weigh computes the sums of the R = len(cnt)/G replicates whose group
// multiplicities are cnt (G per replicate, R <= Batch) into s.
//
// The groups are taken in blocks of groupBlock: the block's multiplicities
// are transposed into s.kf and s.ki (small enough to stay in the cache
// whatever G is), then every path weighs the block's part of its columns,
// carrying each sum from block to block, so that every sum still adds its
// terms in group order.
func (m *SumMatrix) Weigh(cnt []int32, s *Scratch) {
	G, nf, W, ns := m.nG, len(m.fcol), m.nW, len(m.scol)
	R := len(cnt) / G
	if R > Batch {
		panic("engine: SumMatrix.Weigh: more than Batch replicates")
	}
	clear(s.f[:R*nf])
	clear(s.p[:R*W])
	clear(s.s[:R*ns])
	s.nR = R
	cur := s.cur[:ns]
	copy(cur, m.start[:ns])
	for g0 := 0; g0 < G; g0 += groupBlock {
		g1 := min(g0+groupBlock, G)
		m.weighBlock(cnt, s, R, g0, g1)
	}
	nx := len(m.xcol)
	for q, col := range m.inf {
		for r := range R {
			var a float64
			for g, v := range col {
				if k := cnt[r*G+g]; k != 0 {
					a += float64(k) * v
				}
			}
			s.x[r*nx+q] = a
		}
	}
}

// groupBlock is the number of groups Weigh takes at a time: their
// transposed multiplicities (groupBlock x Batch x 8 bytes, twice) stay
// in the L2 cache.
const groupBlock = 512

// weighBlock adds the terms of groups g0..g1-1 to the sums in s: the
// block's multiplicities transposed, then each path's columns.
func (m *SumMatrix) weighBlock(cnt []int32, s *Scratch, R, g0, g1 int) {
	kf, ki := m.transpose(cnt, s, R, g0, g1)
	m.weighFloats(cnt, s, R, g0, g1, kf)
	m.weighWords(cnt, s, R, g0, g1, ki)
	m.weighSparseCols(s, R, g0, g1, kf)
}

// transpose writes the multiplicities of groups g0..g1-1 of the R
// replicates into s.kf and s.ki (those that weigh needs), group by group:
// kf[(g-g0)·R + r] is replicate r's multiplicity of group g.
func (m *SumMatrix) transpose(cnt []int32, s *Scratch, R, g0, g1 int) (kf []float64, ki []uint64) {
	G := m.nG
	nb := g1 - g0
	kf, ki = s.kf[:min(len(s.kf), nb*R)], s.ki[:min(len(s.ki), nb*R)]
	// Transposed group by group: R read streams, one written.
	switch {
	case len(kf) > 0 && len(ki) > 0:
		for b := range nb {
			f, i := kf[b*R:][:R], ki[b*R:][:R]
			for r := range f {
				c := cnt[r*G+g0+b]
				f[r], i[r] = float64(c), uint64(c)
			}
		}
	case len(kf) > 0:
		for b := range nb {
			f := kf[b*R:][:R]
			for r := range f {
				f[r] = float64(cnt[r*G+g0+b])
			}
		}
	case len(ki) > 0:
		for b := range nb {
			i := ki[b*R:][:R]
			for r := range i {
				i[r] = uint64(cnt[r*G+g0+b])
			}
		}
	}
	return kf, ki
}

// weighFloats adds the terms of groups g0..g1-1 of the dense float
// columns to the sums in s (kf: the block's transposed multiplicities).
func (m *SumMatrix) weighFloats(cnt []int32, s *Scratch, R, g0, g1 int, kf []float64) {
	G, nf := m.nG, len(m.fcol)
	// Many dense float columns: by blocks of columns, group by group, so
	// that a block of the matrix serves every replicate of the batch from
	// the cache; a group not drawn costs nothing.
	for c0 := 0; c0 < nf; c0 += block {
		c1 := min(c0+block, nf)
		for g := g0; g < g1; g++ {
			row := m.dense[g*nf+c0 : g*nf+c1]
			if R == 16 && m.avx2 {
				axpyRows16(s.f[c0:16*nf], nf, row, (*[16]float64)(kf[(g-g0)*16:]))
				continue
			}
			for r := range R {
				if k := cnt[r*G+g]; k != 0 {
					floats.AddScaled(s.f[r*nf+c0:r*nf+c1], float64(k), row)
				}
			}
		}
	}
}

// weighWords adds the terms of groups g0..g1-1 of the packed words to
// the sums in s (ki: the block's transposed multiplicities).
func (m *SumMatrix) weighWords(cnt []int32, s *Scratch, R, g0, g1 int, ki []uint64) {
	G, W := m.nG, m.nW
	nb := g1 - g0
	if W > fewWords {
		for c0 := 0; c0 < W; c0 += block {
			c1 := min(c0+block, W)
			for g := g0; g < g1; g++ {
				row := m.words[g*W+c0 : g*W+c1]
				if R == 16 && m.avx2 {
					axpyWords16(s.p[c0:16*W], W, row, (*[16]uint64)(ki[(g-g0)*16:]))
					continue
				}
				for r := range R {
					if k := uint64(cnt[r*G+g]); k != 0 {
						acc := s.p[r*W+c0 : r*W+c1]
						acc = acc[:len(row)]
						for i, v := range row {
							acc[i] += k * v
						}
					}
				}
			}
		}
	} else {
		// A few packed words: word by word, eight replicates in registers
		// (the AVX2 kernel: all sixteen of a full batch).
		for w := range W {
			if R == 16 && m.avx2 {
				var a [16]uint64
				for r := range a {
					a[r] = s.p[r*W+w]
				}
				weighWords16(&a, ki[:nb*16], m.words[g0*W+w:g1*W], W)
				for r, v := range a {
					s.p[r*W+w] = v
				}
				continue
			}
			r := 0
			for ; r+8 <= R; r += 8 {
				p := s.p[r*W+w:]
				a0, a1, a2, a3, a4, a5, a6, a7 := p[0], p[W], p[2*W], p[3*W], p[4*W], p[5*W], p[6*W], p[7*W]
				for b := range nb {
					v := m.words[(g0+b)*W+w]
					k := ki[b*R+r:][:8]
					a0 += k[0] * v
					a1 += k[1] * v
					a2 += k[2] * v
					a3 += k[3] * v
					a4 += k[4] * v
					a5 += k[5] * v
					a6 += k[6] * v
					a7 += k[7] * v
				}
				p[0], p[W], p[2*W], p[3*W], p[4*W], p[5*W], p[6*W], p[7*W] = a0, a1, a2, a3, a4, a5, a6, a7
			}
			for ; r < R; r++ {
				a := s.p[r*W+w]
				for b := range nb {
					a += ki[b*R+r] * m.words[(g0+b)*W+w]
				}
				s.p[r*W+w] = a
			}
		}
	}
}

// weighSparseCols adds the terms of groups g0..g1-1 of the sparse
// columns to the sums in s (kf: the block's transposed multiplicities).
func (m *SumMatrix) weighSparseCols(s *Scratch, R, g0, g1 int, kf []float64) {
	ns := len(m.scol)
	// Sparse columns: each column's entries of this block, eight
	// replicates' sums in registers, carried over from the last block.
	for q := range ns {
		lo, end := s.cur[q], m.start[q+1]
		hi := lo
		for hi < end && int(m.grp[hi]) < g1 {
			hi++
		}
		if hi == lo {
			continue
		}
		s.cur[q] = hi
		grp, val := m.grp[lo:hi], m.val[lo:hi]
		val = val[:len(grp)]
		weighSparse(s.s[q*R:][:R], kf[:(g1-g0)*R], R, grp, val, g0, m.avx2)
	}
}

// weighSparse adds val[e]·kf[(grp[e]-g0)·R + r] to acc[r] for every
// entry e in order and every replicate r < R: eight replicates' sums in
// registers (with avx2, the AVX2 kernel weighSparse16: all sixteen of a
// full batch).
func weighSparse(acc, kf []float64, R int, grp []int32, val []float64, g0 int, avx2 bool) {
	val = val[:len(grp)]
	if R == 16 && avx2 {
		weighSparse16((*[16]float64)(acc), kf, grp, val, g0)
		return
	}
	r := 0
	for ; r+8 <= R; r += 8 {
		f := acc[r : r+8 : r+8]
		a0, a1, a2, a3, a4, a5, a6, a7 := f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7]
		for e, g := range grp {
			v := val[e]
			k := kf[(int(g)-g0)*R+r:][:8]
			a0 += k[0] * v
			a1 += k[1] * v
			a2 += k[2] * v
			a3 += k[3] * v
			a4 += k[4] * v
			a5 += k[5] * v
			a6 += k[6] * v
			a7 += k[7] * v
		}
		f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7] = a0, a1, a2, a3, a4, a5, a6, a7
	}
	for ; r < R; r++ {
		a := acc[r]
		for e, g := range grp {
			a += kf[(int(g)-g0)*R+r] * val[e]
		}
		acc[r] = a
	}
}

// Sums writes the C column sums of replicate r of the last Weigh into dst.
func (m *SumMatrix) Sums(s *Scratch, r int, dst []float64) {
	nf, W, nx := len(m.fcol), m.nW, len(m.xcol)
	for q, j := range m.fcol {
		dst[j] = s.f[r*nf+q]
	}
	for _, l := range m.lanes {
		dst[l.col] = float64(s.p[r*W+l.word] >> l.shift & l.mask)
	}
	for q, j := range m.scol {
		dst[j] = s.s[q*s.nR+r]
	}
	for q, j := range m.xcol {
		dst[j] = s.x[r*nx+q]
	}
	for _, a := range m.alias {
		dst[a[0]] = dst[a[1]]
	}
}

// HasAVX2 reports whether this CPU has the AVX2 kernels of SumMatrix.
func HasAVX2() bool { return haveAVX2 }
