package metrics

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// rankNum is a float64 read from the reference JSON, where null stands for
// NaN (an undefined value).
type rankNum float64

func (f *rankNum) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*f = rankNum(math.NaN())
		return nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = rankNum(v)
	return nil
}

// rankLoadJSON decodes testdata/name into v. The files are written once by
// testdata/rank_gen_reference.py from independent references.
func rankLoadJSON(t testing.TB, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// rankSame reports whether got equals want within tol (absolute, or
// relative for |want| > 1); two NaNs are equal.
func rankSame(got, want, tol float64) bool {
	if math.IsNaN(want) || math.IsNaN(got) {
		return math.IsNaN(want) && math.IsNaN(got)
	}
	if math.IsInf(want, 0) {
		return got == want
	}
	return math.Abs(got-want) <= tol*math.Max(1, math.Abs(want))
}

type rankRefCutoff struct {
	K               int     `json:"k"`
	Recall          rankNum `json:"recall"`
	CappedRecall    rankNum `json:"capped_recall"`
	Precision       rankNum `json:"precision"`
	Hit             rankNum `json:"hit"`
	NDCGLinear      rankNum `json:"ndcg_linear"`
	NDCGExponential rankNum `json:"ndcg_exponential"`
	APGold          rankNum `json:"ap_gold"`
	APMinGoldK      rankNum `json:"ap_min_gold_k"`
	APHits          rankNum `json:"ap_hits"`
	RR              rankNum `json:"rr"`
}

type rankRefCase struct {
	Name    string          `json:"name"`
	Rel     []int           `json:"rel"`
	Gold    []int           `json:"gold"`
	RR      rankNum         `json:"rr"`
	AP      rankNum         `json:"ap"`
	Oracle  []int           `json:"oracle"`
	Cutoffs []rankRefCutoff `json:"cutoffs"`
}

// TestRankReference checks every per-query ranking kernel against
// testdata/rank_reference.json: a Python transcription of trec_eval 9's
// P_k, recall_k, success_k, recip_rank, map, map_cut_k and ndcg_cut_k
// (linear gain = qrels grade, discount log2(rank+1), ideal from all qrels
// grades), and of the published variants (docs/metrics.md "Conventions"), on hand-made edge cases (gold outside
// the pool, k beyond the list, empty gold, empty pool, tie order) and random
// graded queries.
func TestRankReference(t *testing.T) {
	const tol = 1e-12
	var ref struct{ Cases []rankRefCase }
	rankLoadJSON(t, "rank_reference.json", &ref)
	if len(ref.Cases) < 10 {
		t.Fatalf("only %d reference cases", len(ref.Cases))
	}
	for _, c := range ref.Cases {
		nGold := len(c.Gold)
		check := func(what string, k int, got float64, want rankNum) {
			t.Helper()
			if !rankSame(got, float64(want), tol) {
				t.Errorf("%s: %s@%d = %v, want %v (rel=%v gold=%v)", c.Name, what, k, got, float64(want), c.Rel, c.Gold)
			}
		}
		check("RR", 0, RR(c.Rel), c.RR)
		check("AP", 0, AP(c.Rel, nGold), c.AP)
		if got := Oracle(c.Rel); !slices.Equal(got, c.Oracle) && len(c.Rel) > 0 {
			t.Errorf("%s: Oracle = %v, want %v", c.Name, got, c.Oracle)
		}
		for _, w := range c.Cutoffs {
			k := w.K
			check("RecallAt", k, RecallAt(c.Rel, nGold, k), w.Recall)
			check("CappedRecallAt", k, CappedRecallAt(c.Rel, nGold, k), w.CappedRecall)
			check("PrecisionAt", k, PrecisionAt(c.Rel, k), w.Precision)
			check("HitAt", k, HitAt(c.Rel, k), w.Hit)
			check("NDCGAt/linear", k, NDCGAt(c.Rel, c.Gold, k, GainLinear), w.NDCGLinear)
			check("NDCGAt/exponential", k, NDCGAt(c.Rel, c.Gold, k, GainExponential), w.NDCGExponential)
			check("APAt/gold", k, APAt(c.Rel, nGold, k, MAPGold), w.APGold)
			check("APAt/min_gold_k", k, APAt(c.Rel, nGold, k, MAPMinGoldK), w.APMinGoldK)
			check("APAt/hits", k, APAt(c.Rel, nGold, k, MAPHits), w.APHits)
			check("RRAt", k, RRAt(c.Rel, k), w.RR)
		}
	}
}

// TestRankHand checks the kernels on cases small enough to compute by hand;
// each expected value's derivation is in the comment beside it.
func TestRankHand(t *testing.T) {
	const tol = 1e-12
	l2 := math.Log2
	nan := math.NaN()
	// rel=[0,1,0,1], gold=[1,1]: gold at ranks 2 and 4.
	hand := []int{0, 1, 0, 1}
	handGold := []int{1, 1}
	for _, tc := range []struct {
		name string
		got  float64
		want float64
	}{
		{"recall@2", RecallAt(hand, 2, 2), 0.5},              // 1 hit / 2 gold
		{"recall@1", RecallAt(hand, 2, 1), 0},                // no hit at rank 1
		{"capped_recall@1", CappedRecallAt(hand, 2, 1), 0},   // 0 / min(1, 2)
		{"capped_recall@3", CappedRecallAt(hand, 2, 3), 0.5}, // 1 / min(3, 2)
		{"precision@4", PrecisionAt(hand, 4), 0.5},           // 2 / 4
		{"precision@10", PrecisionAt(hand, 10), 0.2},         // 2 / 10: denominator k, as trec_eval P_10
		{"hit@1", HitAt(hand, 1), 0},
		{"hit@2", HitAt(hand, 2), 1},
		// DCG: gold at ranks 2 and 4; IDCG: gold at ranks 1 and 2.
		{"ndcg@4", NDCGAt(hand, handGold, 4, GainLinear), (1/l2(3) + 1/l2(5)) / (1 + 1/l2(3))},
		// Exponential gain 2^1-1 = 1: the same as linear for binary grades.
		{"ndcg@2", NDCGAt(hand, handGold, 2, GainExponential), (1 / l2(3)) / (1 + 1/l2(3))},
		{"ap", AP(hand, 2), 0.5},                                 // (1/2 + 2/4) / 2
		{"ap@2/gold", APAt(hand, 2, 2, MAPGold), 0.25},           // (1/2) / 2
		{"ap@2/min_gold_k", APAt(hand, 2, 2, MAPMinGoldK), 0.25}, // (1/2) / min(2, 2)
		{"ap@3/hits", APAt(hand, 2, 3, MAPHits), 0.5},            // (1/2) / 1 hit
		{"ap@1/hits", APAt(hand, 2, 1, MAPHits), 0},              // no hit: 0 (the hits denominator)
		{"rr", RR(hand), 0.5},                                    // first gold at rank 2
		{"rr@1", RRAt(hand, 1), 0},
		{"rr@2", RRAt(hand, 2), 0.5},
		// Graded: rel=[2,0,3], gold=[3,2,1] (the grade-1 item is not in the pool).
		{"graded ndcg@3 linear", NDCGAt([]int{2, 0, 3}, []int{3, 2, 1}, 3, GainLinear),
			(2 + 3/l2(4)) / (3 + 2/l2(3) + 1/l2(4))},
		{"graded ndcg@3 exponential", NDCGAt([]int{2, 0, 3}, []int{3, 2, 1}, 3, GainExponential),
			(3 + 7/l2(4)) / (7 + 3/l2(3) + 1/l2(4))},
		// Gold outside the pool: rel=[1,0], gold=[1,1,1]; k beyond the list.
		{"outside recall@5", RecallAt([]int{1, 0}, 3, 5), 1.0 / 3},
		{"outside ndcg@5", NDCGAt([]int{1, 0}, []int{1, 1, 1}, 5, GainLinear), 1 / (1 + 1/l2(3) + 1/l2(4))},
		{"outside ap", AP([]int{1, 0}, 3), 1.0 / 3},
		// Empty gold: undefined.
		{"no gold recall", RecallAt([]int{0, 0}, 0, 1), nan},
		{"no gold capped", CappedRecallAt([]int{0, 0}, 0, 1), nan},
		{"no gold ndcg", NDCGAt([]int{0, 0}, nil, 2, GainLinear), nan},
		{"no gold ap", APAt([]int{0, 0}, 0, 2, MAPHits), nan},
		{"no gold rr", RR([]int{0, 0}), 0},
		// Empty pool.
		{"empty pool recall", RecallAt(nil, 2, 3), 0},
		{"empty pool ndcg", NDCGAt(nil, []int{1}, 3, GainLinear), 0},
		{"empty pool ap", AP(nil, 1), 0},
		{"empty pool precision", PrecisionAt(nil, 3), 0},
	} {
		if !rankSame(tc.got, tc.want, tol) {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

// TestRankTieOrder shows that the kernels respect the caller's order: two
// candidates with the same score, one gold, give different values depending
// on which the caller ranked first (ties keep input order, docs/metrics.md).
func TestRankTieOrder(t *testing.T) {
	first, second := []int{1, 0}, []int{0, 1}
	if RecallAt(first, 1, 1) != 1 || RecallAt(second, 1, 1) != 0 {
		t.Error("Recall@1 does not follow rel order")
	}
	if RR(first) != 1 || RR(second) != 0.5 {
		t.Error("RR does not follow rel order")
	}
}

func TestRankPanics(t *testing.T) {
	for name, f := range map[string]func(){
		"recall k=0":      func() { RecallAt([]int{1}, 1, 0) },
		"precision k=-1":  func() { PrecisionAt([]int{1}, -1) },
		"ndcg k=0":        func() { NDCGAt([]int{1}, []int{1}, 0, GainLinear) },
		"ap bad denom":    func() { APAt([]int{1}, 1, 1, MAPDenominator(9)) },
		"ndcg bad gain":   func() { NDCGAt([]int{1}, []int{1}, 1, Gain(9)) },
		"rr k=0":          func() { RRAt([]int{1}, 0) },
		"hit k=0":         func() { HitAt([]int{1}, 0) },
		"capped k=0":      func() { CappedRecallAt([]int{1}, 1, 0) },
		"random perms=0":  func() { RandomAPMonteCarlo([]int{1}, 1, 1, MAPGold, 0, 1) },
		"percentile NaN":  func() { PercentileKs(3, []float64{math.NaN()}) },
		"percentile n<0":  func() { PercentileKs(-1, []float64{0.5}) },
		"random ndcg k=0": func() { RandomExpectedNDCGAt([]int{1}, []int{1}, 0, GainLinear) },
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s did not panic", name)
				}
			}()
			f()
		})
	}
}

func TestRankStrings(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{GainExponential.String(), "exponential"},
		{GainLinear.String(), "linear"},
		{Gain(7).String(), "Gain(7)"},
		{MAPGold.String(), "gold"},
		{MAPMinGoldK.String(), "min_gold_k"},
		{MAPHits.String(), "hits"},
		{MAPDenominator(5).String(), "MAPDenominator(5)"},
	} {
		if tc.got != tc.want {
			t.Errorf("String() = %q, want %q", tc.got, tc.want)
		}
	}
}

func TestOracleDoesNotModify(t *testing.T) {
	rel := []int{0, 1, 0, 3, 2, 1}
	o := Oracle(rel)
	if want := []int{3, 2, 1, 1, 0, 0}; !slices.Equal(o, want) {
		t.Errorf("Oracle = %v, want %v", o, want)
	}
	if want := []int{0, 1, 0, 3, 2, 1}; !slices.Equal(rel, want) {
		t.Errorf("Oracle modified its input: %v", rel)
	}
	// The oracle reaches nDCG 1 when all gold is in the pool.
	if got := NDCGAt(o, []int{3, 2, 1, 1}, 3, GainExponential); math.Abs(got-1) > 1e-15 {
		t.Errorf("oracle nDCG@3 = %v, want 1", got)
	}
}

// FuzzRankKernels checks properties every ranking kernel must have on any
// input: values in [0, 1] or NaN exactly when undefined, recall and hit
// non-decreasing in k, the oracle never worse than the given order, and
// Hits never above k.
func FuzzRankKernels(f *testing.F) {
	f.Add([]byte{0, 1, 0, 1}, uint8(2), uint8(2))
	f.Add([]byte{3, 0, 2, 0, 0, 1}, uint8(5), uint8(3))
	f.Add([]byte{}, uint8(1), uint8(1))
	f.Add([]byte{0, 0, 0}, uint8(0), uint8(10))
	f.Fuzz(func(t *testing.T, raw []byte, extraGold, kb uint8) {
		rel := make([]int, len(raw))
		var gold []int
		for i, b := range raw {
			rel[i] = int(b % 4)
			if rel[i] > 0 {
				gold = append(gold, rel[i])
			}
		}
		for i := range int(extraGold % 4) {
			gold = append(gold, 1+i%3)
		}
		k := 1 + int(kb%40)
		nGold := len(gold)
		in01 := func(name string, v float64, undefined bool) {
			t.Helper()
			if undefined {
				if !math.IsNaN(v) {
					t.Fatalf("%s = %v, want NaN (rel=%v gold=%v k=%d)", name, v, rel, gold, k)
				}
				return
			}
			if !(v >= 0 && v <= 1+1e-12) {
				t.Fatalf("%s = %v outside [0,1] (rel=%v gold=%v k=%d)", name, v, rel, gold, k)
			}
		}
		none := nGold == 0
		in01("recall", RecallAt(rel, nGold, k), none)
		in01("capped", CappedRecallAt(rel, nGold, k), none)
		in01("precision", PrecisionAt(rel, k), false)
		in01("hit", HitAt(rel, k), false)
		in01("ndcg lin", NDCGAt(rel, gold, k, GainLinear), none)
		in01("ndcg exp", NDCGAt(rel, gold, k, GainExponential), none)
		for _, d := range []MAPDenominator{MAPGold, MAPMinGoldK, MAPHits} {
			in01("ap "+d.String(), APAt(rel, nGold, k, d), none)
		}
		in01("rr", RR(rel), false)
		in01("rr@k", RRAt(rel, k), false)
		in01("ndcg whole", NDCG(rel, gold, GainExponential), none)
		in01("r_precision", RPrecision(rel, nGold), none)
		in01("random ndcg whole", RandomExpectedNDCG(rel, gold, GainLinear), none)
		in01("random r_precision", RandomExpectedRPrecision(rel, nGold), none)
		in01("random ap", RandomExpectedAP(rel, nGold), none)
		if h := Hits(rel, k); h > k || h < 0 {
			t.Fatalf("Hits = %d with k = %d", h, k)
		}
		if !none {
			if RecallAt(rel, nGold, k+1) < RecallAt(rel, nGold, k) {
				t.Fatal("recall decreases with k")
			}
			o := Oracle(rel)
			if NDCGAt(o, gold, k, GainLinear) < NDCGAt(rel, gold, k, GainLinear)-1e-12 {
				t.Fatalf("oracle nDCG below system: rel=%v", rel)
			}
			if APAt(o, nGold, k, MAPGold) < APAt(rel, nGold, k, MAPGold)-1e-12 {
				t.Fatalf("oracle AP below system: rel=%v", rel)
			}
			re := RandomExpectedNDCGAt(rel, gold, k, GainLinear)
			in01("random ndcg", re, false)
			if re > NDCGAt(o, gold, k, GainLinear)+1e-12 {
				t.Fatalf("random nDCG above oracle: rel=%v", rel)
			}
		}
		if HitAt(rel, k+1) < HitAt(rel, k) {
			t.Fatal("hit decreases with k")
		}
	})
}

// TestOracleCounting checks the counting path of Oracle against a sort of
// the grades, descending, and the fallback for grades it does not count.
func TestOracleCounting(t *testing.T) {
	for _, rel := range [][]int{
		nil, {0}, {1, 0, 2, 0, 3, 1}, {15, 0, 15, 7}, // counted
		{3, -1, 20, 0, 2}, {16, 1}, // sorted
	} {
		want := slices.Clone(rel)
		slices.Sort(want)
		slices.Reverse(want)
		if got := Oracle(rel); !slices.Equal(got, want) || len(got) != len(rel) {
			t.Errorf("Oracle(%v) = %v, want %v", rel, got, want)
		}
	}
}

// TestRankDiscountTable: the tables of discounts and of their running sums
// give bit for bit what the loops they replace give, inside and past the
// table.
func TestRankDiscountTable(t *testing.T) {
	var s float64
	for i := range discountTable + 100 {
		if d := 1 / math.Log2(float64(i)+2); rankDiscount(i) != d {
			t.Fatalf("rankDiscount(%d) = %v, want %v", i, rankDiscount(i), d)
		}
		if got := rankDiscountSum(i); got != s {
			t.Fatalf("rankDiscountSum(%d) = %v, want %v", i, got, s)
		}
		s += 1 / math.Log2(float64(i)+2)
	}
}
