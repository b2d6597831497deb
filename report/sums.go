package report

import (
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// sumMatrix is the groups x columns matrix of per-group column sums that
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
//     Σ_g cnt[g]·S[g] loop gives (integer sums are exact either way).
//
//   - columns that are zero for most groups (a per-criterion column: a
//     post has one query of each criterion, and few are positive; every
//     sliced column under unit: query) are kept as a sparse list per group,
//     so their cost is their non-zero entries, not groups x slices.
//
// Replicates are weighed in batches, and columns in blocks, so that one
// pass over a block of the matrix serves every replicate of the batch from
// the cache. Every path adds a column's terms in group order, and skipping
// a zero term changes no sum, so each sum is the same number whichever path
// holds its column.
type sumMatrix struct {
	G     int
	C     int       // columns, as the statistics index them
	fcol  []int     // column of each float column
	F     []float64 // G x len(fcol)
	W     int       // packed words per group
	P     []uint64  // G x W
	lanes []lane    // where each packed column is
	scol  []int     // column of each sparse column
	alias [][2]int  // column [0] equals column [1] (weighed once)
	start []int32   // group g's entries are idx/val[start[g]:start[g+1]]
	idx   []int32   // sparse column (index into scol)
	val   []float64
}

type lane struct {
	col, word int
	shift     uint
	mask      uint64
}

// newSumMatrix packs cols (cols[j][g]: the sum of column j over group g).
func newSumMatrix(G int, cols [][]float64) *sumMatrix {
	m := &sumMatrix{G: G, C: len(cols)}
	var c16, c32 []int
	byHash := map[uint64][]int{}
	for j, c := range cols {
		// Systems share many columns (counts that depend on the gold
		// labels only): weigh each distinct column once.
		var h uint64 = 14695981039346656037
		for _, v := range c {
			h = (h ^ math.Float64bits(v)) * 1099511628211
		}
		dup := -1
		for _, i := range byHash[h] {
			if slices.Equal(cols[i], c) {
				dup = i
				break
			}
		}
		if dup >= 0 {
			m.alias = append(m.alias, [2]int{j, dup})
			continue
		}
		byHash[h] = append(byHash[h], j)
		nz := 0
		for _, v := range c {
			if v != 0 {
				nz++
			}
		}
		if 4*nz < G {
			m.scol = append(m.scol, j)
			continue
		}
		mx, ok := 0.0, true
		for _, v := range c {
			if !(v >= 0 && v == math.Trunc(v)) {
				ok = false
				break
			}
			mx = max(mx, v)
		}
		switch bound := mx * float64(G); {
		case ok && bound < 1<<16:
			c16 = append(c16, j)
		case ok && bound < 1<<32:
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
	m.W = w16 + (len(c32)+1)/2
	m.P = make([]uint64, G*m.W)
	for _, l := range m.lanes {
		for g, v := range cols[l.col] {
			m.P[g*m.W+l.word] |= uint64(v) << l.shift
		}
	}
	if len(m.fcol) < fewDense {
		// A handful of dense columns costs less in the sparse lists than a
		// call per group and replicate.
		m.scol = append(m.scol, m.fcol...)
		slices.Sort(m.scol)
		m.fcol = nil
	}
	m.start = make([]int32, G+1)
	for g := range G {
		for q, j := range m.scol {
			if v := cols[j][g]; v != 0 {
				m.idx = append(m.idx, int32(q))
				m.val = append(m.val, v)
			}
		}
		m.start[g+1] = int32(len(m.idx))
	}
	nf := len(m.fcol)
	m.F = make([]float64, G*nf)
	for q, j := range m.fcol {
		for g, v := range cols[j] {
			m.F[g*nf+q] = v
		}
	}
	return m
}

// sumScratch is one worker's accumulators for a batch of replicates.
type sumScratch struct {
	f []float64
	p []uint64
	s []float64
}

func (m *sumMatrix) scratch(batch int) *sumScratch {
	return &sumScratch{f: make([]float64, batch*len(m.fcol)), p: make([]uint64, batch*m.W), s: make([]float64, batch*len(m.scol))}
}

// fewDense is the number of dense float columns below which they join the
// sparse lists.
const fewDense = 16

// block is the number of matrix columns (float64 or packed words) one
// pass over the groups reads: a batch's accumulators for them stay in L1.
const block = 128

// weigh computes the sums of the R = len(cnt)/G replicates whose group
// multiplicities are cnt (G per replicate) into s.
func (m *sumMatrix) weigh(cnt []int32, s *sumScratch) {
	G, nf, W := m.G, len(m.fcol), m.W
	R := len(cnt) / G
	ns := len(m.scol)
	fa, pa, sa := s.f[:R*nf], s.p[:R*W], s.s[:R*ns]
	clear(fa)
	clear(pa)
	clear(sa)
	if ns > 0 {
		for g := range G {
			idx, val := m.idx[m.start[g]:m.start[g+1]], m.val[m.start[g]:m.start[g+1]]
			val = val[:len(idx)]
			for r := range R {
				if k := cnt[r*G+g]; k != 0 {
					fk := float64(k)
					acc := sa[r*ns : (r+1)*ns]
					for q, j := range idx {
						acc[j] += fk * val[q]
					}
				}
			}
		}
	}
	for c0 := 0; c0 < nf; c0 += block {
		c1 := min(c0+block, nf)
		for g := range G {
			row := m.F[g*nf+c0 : g*nf+c1]
			for r := range R {
				if k := cnt[r*G+g]; k != 0 {
					floats.AddScaled(fa[r*nf+c0:r*nf+c1], float64(k), row)
				}
			}
		}
	}
	for c0 := 0; c0 < W; c0 += block {
		c1 := min(c0+block, W)
		for g := range G {
			row := m.P[g*W+c0 : g*W+c1]
			for r := range R {
				if k := uint64(cnt[r*G+g]); k != 0 {
					acc := pa[r*W+c0 : r*W+c1]
					acc = acc[:len(row)]
					for i, v := range row {
						acc[i] += k * v
					}
				}
			}
		}
	}
}

// sums writes the C column sums of replicate r of the last weigh into dst.
func (m *sumMatrix) sums(s *sumScratch, r int, dst []float64) {
	nf, W := len(m.fcol), m.W
	for q, j := range m.fcol {
		dst[j] = s.f[r*nf+q]
	}
	for _, l := range m.lanes {
		dst[l.col] = float64(s.p[r*W+l.word] >> l.shift & l.mask)
	}
	ns := len(m.scol)
	for q, j := range m.scol {
		dst[j] = s.s[r*ns+q]
	}
	for _, a := range m.alias {
		dst[a[0]] = dst[a[1]]
	}
}
