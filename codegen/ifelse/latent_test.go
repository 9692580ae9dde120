package ifelse_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/codegen/ifelse"
	"github.com/treegen/treegen/codegen/internal/gentest"
	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// latentModels is the number of random models of latentCases of each
// kind, and latentShort the number with -short.
const latentModels, latentShort = 30, 6

// latentCases are the models with latent trees: two hand-computed ones and
// random ones with up to three latent trees among ordinary trees, whose
// read-out weights, activities and rows make sums of exactly 0, of both
// signs, and margins of exactly 0.
func latentCases(t *testing.T, s *gentest.Suite) []gentest.Case {
	var cases []gentest.Case
	add := func(file, name string, rows, want [][]float64) {
		for _, c := range s.Both(t, load(t, file), name, rows) {
			c.Margins = want
			c.Allocs = true
			cases = append(cases, c)
		}
	}
	// An ordinary tree, a latent tree of axis and oblique splits (a node of
	// activity 0, a read-out weight of 0) and a latent tree with elu
	// splits. Row (0.5, 0.125) has a margin of exactly 0 at the root of the
	// first latent tree: both children get z = 0.
	add("latent.json", "latent",
		[][]float64{{0, 0}, {1, -1}, {0.5, 0.125}, {nan, 0}},
		[][]float64{{4.5, -0.5}, {4.125, 1.25}, {3.5625, -0.375}, {nan, nan}})
	// Signed zeros: the base scores and the read-out biases are -0, and so
	// is the root's activity (its z is -0 on every path, its terms 1 * -0).
	// Output 0 weighs the feature +0 (+0 * -0 is -0) and both leaves -1,
	// whose terms off the path are -1 * +0 = -0: at x = -0 the margin is -0,
	// the right leaf's q is -0 but its z is max(-0, 0) = +0, every term is
	// -0 and so is the output. Output 1 weighs the feature -0 (-0 * x is +0
	// for x < 0) and the left leaf 1, whose term off the path is +0, which
	// turns a sum of -0 into +0. Output 2 weighs the nodes 1, -0 and -0:
	// every term is -0 but the feature's, +0 * x.
	negZero := math.Copysign(0, -1)
	add("latentzero.json", "latentzero",
		[][]float64{{0}, {1}, {-1}, {negZero}, {0.5}, {-0.25}, {nan}, {inf}},
		[][]float64{{0, 0, 0}, {-1, -1, 0}, {-1, 1, negZero}, {negZero, 0, negZero}, {-0.5, -0.5, 0}, {-0.25, 0.25, negZero},
			{nan, nan, nan}, {nan, nan, nan}})

	n := latentModels
	if testing.Short() {
		n = latentShort
	}
	for i := 0; i < n; i++ {
		for kind, prefix := range []string{"lat", "latz", "latn"} {
			seed := uint64(1000 + i)
			m := latentModel(seed, latentKind(kind))
			rows := gentest.Inputs(seed, m, 40)
			for _, row := range rows[:20] { // features >= +0 (a -0 times -0 is +0)
				rows = append(rows, slices.Clone(row))
				for j, v := range rows[len(rows)-1] {
					rows[len(rows)-1][j] = math.Abs(v)
				}
			}
			rows = append(rows, marginZeroRows(seed, m)...)
			cs := s.Both(t, m, fmt.Sprintf("%s%03d", prefix, i), rows)
			for j := range cs {
				cs[j].Allocs = i < 2
			}
			cases = append(cases, cs...)
		}
	}
	return cases
}

// latentKind is a kind of random model of latentModel.
type latentKind int

const (
	latentPlain    latentKind = iota // read-out weights often ±0 or beyond float32
	latentZeros                      // margins often exactly 0, of either sign
	latentNegative                   // margins often exactly -0
)

// latentModel returns a random model with one to three latent trees (axis
// and oblique splits, some with elu) placed among its ordinary trees, a
// tenth of its latent nodes of activity 0 and a tenth of -0, and read-out
// weights that are often ±0 or beyond the float32 range.
//
// A latentZeros model has no ordinary tree half of the time, a base score
// of -0, and a read-out whose bias and feature weights are ±0 and most of
// whose node weights are ±0: its margins are often exactly 0, of either
// sign. A latentNegative model has only latent trees, no activity of -0,
// base scores, read-out biases and feature weights of -0, and node weights
// of -0 or negative: every term off the path is -0, and on rows of features
// >= +0, so are many margins.
func latentModel(seed uint64, kind latentKind) *ir.Model {
	o := randmodel.Options{Tricky: true, MaxDepth: 5, Oblique: 0.4, Categorical: 0.1, SoftmaxLeaf: 0.2,
		Latent: true, LatentElu: seed%2 == 0, Float32Sum: true}
	m := randmodel.Model(seed, o)
	r := rand.New(rand.NewPCG(seed, 0x1a7e))
	o.Features = m.NumFeatures
	for i := 0; i < r.IntN(3); i++ {
		o.LatentElu = r.IntN(2) == 0
		src := randmodel.Model(seed*31+uint64(i)+1, o)
		m.Trees = slices.Insert(m.Trees, r.IntN(len(m.Trees)+1), src.Trees[len(src.Trees)-1])
	}
	negZero := math.Copysign(0, -1)
	signedZero := func() float64 {
		if kind == latentNegative || r.IntN(2) == 0 {
			return negZero
		}
		return 0
	}
	if kind != latentPlain {
		m.Aggregation = ir.Sum
		if kind == latentNegative || r.IntN(2) == 0 {
			m.Trees = slices.DeleteFunc(m.Trees, func(t ir.Tree) bool { return !t.Latent })
		}
		m.BaseScore = make([]float64, m.NumOutputs)
		for k := range m.BaseScore {
			m.BaseScore[k] = negZero
		}
	}
	for i := range m.Trees {
		t := &m.Trees[i]
		for j := range t.Nodes {
			if !t.Latent {
				continue
			}
			a := *t.Nodes[j].Activity
			switch r.IntN(10) {
			case 0:
				a = 0
			case 1:
				if kind != latentNegative {
					a = negZero
				}
			}
			t.Nodes[j].Activity = &a
		}
	}
	pool := randmodel.Pool()
	weight := func() float64 {
		switch u := r.IntN(10); {
		case kind == latentNegative && u < 8:
			return negZero
		case kind == latentNegative:
			return -1 - float64(r.IntN(8))/4
		case u < 2 || (kind == latentZeros && u < 8):
			return signedZero()
		case u < 4:
			return pool[r.IntN(len(pool))] // ±0, tiny, beyond float32...
		}
		return math.Round(r.NormFloat64()*64) / 32
	}
	z := m.LatentSize()
	m.Readout = &ir.Readout{}
	for k := 0; k < m.NumOutputs; k++ {
		row := make([]float64, m.NumFeatures+z)
		for j := range row {
			if kind != latentPlain && j < m.NumFeatures {
				row[j] = signedZero()
			} else {
				row[j] = weight()
			}
		}
		bias := math.Round(r.NormFloat64()*64) / 32
		if kind != latentPlain {
			bias = signedZero()
		}
		m.Readout.Weights = append(m.Readout.Weights, row)
		m.Readout.Bias = append(m.Readout.Bias, bias)
	}
	if err := m.Validate(); err != nil {
		panic(fmt.Sprintf("latentModel(%d): %v", seed, err))
	}
	return m
}

// marginZeroRows returns rows that make split margins of latent trees
// exactly 0 (or nearly): for each split, a row of zeros, of ones or of
// random numbers in which the split's feature equals its threshold, through
// the preprocessing, or the one feature of an oblique split cancels its
// bias; and rows of zeros of each sign.
func marginZeroRows(seed uint64, m *ir.Model) [][]float64 {
	r := rand.New(rand.NewPCG(seed, 0x2e50))
	p := m.NumFeatures
	fill := func(v float64) []float64 {
		row := make([]float64, p)
		for j := range row {
			row[j] = v
		}
		return row
	}
	rows := [][]float64{fill(0), fill(math.Copysign(0, -1)), fill(1)}
	// raw returns the input whose preprocessed value is v (if it exists).
	raw := func(f int, v float64) float64 {
		if pp := m.Preprocess; pp != nil {
			return v/pp.Scale[f] + pp.Shift[f]
		}
		return v
	}
	for _, t := range m.Trees {
		if !t.Latent {
			continue
		}
		for _, n := range t.Nodes {
			var row []float64
			switch r.IntN(3) {
			case 0:
				row = fill(0)
			case 1:
				row = fill(1)
			default:
				row = fill(0)
				for j := range row {
					row[j] = math.Round(r.NormFloat64()*8) / 4
				}
			}
			switch {
			case n.Kind == ir.Axis:
				row[n.Feature] = raw(n.Feature, n.Threshold)
			case n.Kind == ir.Oblique && len(n.Indices) == 1 && n.Weights[0] != 0:
				for j := range row {
					row[j] = 0
				}
				f := n.Indices[0]
				row[f] = raw(f, -n.Bias/n.Weights[0])
			default:
				continue
			}
			rows = append(rows, row)
		}
	}
	return rows
}

// TestLatentCode checks the shape of the code of a latent tree: the path of
// positive margins only, the +0 terms as one normalisation at the end of
// the path, and the read-out after the mean.
func TestLatentCode(t *testing.T) {
	m := load(t, "latentzero.json")
	files, err := codegen.Generate(m, codegen.Options{Package: "p", Backend: ifelse.Name, OmitVersion: true})
	if err != nil {
		t.Fatal(err)
	}
	src := string(gentest.Source(files))
	for _, want := range []string{
		// The root's activity is -0: its z is a constant, and so are its
		// terms 1 * -0, which change no sum.
		"func tree0(x *[NumFeatures]float64, r *[NumOutputs]float64) {\n\tvar s, z float64\n\tq := math.Inf(1)\n\ts = x[0] - 0\n",
		// Left: the right leaf's terms off the path are -1 * +0 = -0.
		"\tif s < 0 {\n\t\tif -s < q {\n\t\t\tq = -s\n\t\t}\n\t\tz = min(max(q, 0), 1)\n" +
			"\t\tr[0] += float64(-1 * z)\n\t\tr[1] += float64(1 * z)\n\t\treturn\n\t}\n",
		// Right: the left leaf's term off the path is +0 for output 1,
		// added at the end of the path.
		"\tif s < q {\n\t\tq = s\n\t}\n\tz = min(max(q, 0), 1)\n" +
			"\tr[0] += float64(-1 * z)\n\tr[1] += float64(-1 * z)\n\tif r[1] == 0 {\n\t\tr[1] = 0\n\t}\n}\n",
		"\treadout(x, &a)\n\treturn a\n",
		"\tr := &[NumOutputs]float64{\n\t\tnegZero + float64(0*x[0]),\n\t\tnegZero + float64(negZero*x[0]),\n\t\tnegZero + float64(0*x[0]),\n\t}\n" +
			"\ttree0(x, r)\n\ta[0] += r[0]\n\ta[1] += r[1]\n\ta[2] += r[2]\n}\n",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the code lacks\n%s\nin\n%s", want, src)
		}
	}
}

// TestLatentBackends checks that auto picks ifelse for latent models, and
// that the other backends refuse them, saying to use ifelse.
func TestLatentBackends(t *testing.T) {
	m := load(t, "latent.json")
	if err := ifelse.Check(m); err != nil {
		t.Errorf("Check: %v", err)
	}
	b, err := codegen.AutoBackend(m)
	if err != nil || b.Name() != ifelse.Name {
		t.Errorf("auto picks %v, %v; want ifelse", b, err)
	}
	for _, name := range []string{"quickscorer", "smoothstep"} {
		_, err := codegen.Generate(m, codegen.Options{Package: "p", Backend: name})
		if want := name + " backend: tree 1 is latent: use the ifelse backend"; err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q...", name, err, want)
		}
	}
}
