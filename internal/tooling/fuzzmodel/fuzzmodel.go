// Package fuzzmodel decodes arbitrary bytes into valid IR models and rows
// that reach the corners of their semantics: the inputs of the
// differential fuzzing of the code generation backends (FuzzBackends in
// package codegen), which compiles each model with every backend that
// accepts it and compares the generated code with the interpreter, bit for
// bit.
//
// # The input format
//
// Decode is total: every byte string gives valid models. The input is cut
// at every [Separator] byte into chunks, and chunk i decodes into model i
// (at most [MaxModels]). When there are fewer than [MinModels] chunks, the
// chunks are used again, in turn, until there are MinModels models: a copy
// decodes the same bytes into a model of the same shape whose numbers and
// rows differ (below). So every input gives at least MinModels models, which
// the fuzz target builds in one Go module: building is what costs, and one
// go build of many small packages costs little more than one of a few.
//
// A chunk is read byte by byte as a stream of choices (the first byte picks
// a [Profile], the next ones the task, the number of features and outputs,
// the link, the trees node by node in pre-order, each number, the rows
// value by value), so that the fuzzer's mutations change the structure of
// one model at a time. When the chunk runs out, the stream goes on with a
// pseudo-random generator seeded from the chunk's bytes and the number of
// the copy: short inputs give full models, and a copy of a chunk gives
// another model from the same choices. The profile [RandModel] hands the model itself to
// internal/randmodel: the chunk then chooses its Options and its seed.
package fuzzmodel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/treegen/treegen/internal/tooling/randmodel"
	"github.com/treegen/treegen/ir"
)

// Limits of the decoding.
const (
	// Separator ends a chunk of the input, the bytes of one model.
	Separator = 0xFF
	// MinModels is the least number of models an input decodes into.
	MinModels = 8
	// MaxModels is the most: later chunks are ignored.
	MaxModels = 12
	// MaxFeatures is the largest number of features of a decoded model.
	MaxFeatures = 8
	// maxNodes bounds the nodes of a tree grown node by node (a tree can
	// exceed it by its depth: the pending splits get leaves).
	maxNodes = 160
	// streamRows is the number of rows decoded from the stream, besides
	// the fixed rows of every model and those of randmodel.Inputs.
	streamRows = 64
	// randomRows is the number of rows of randmodel.Inputs.
	randomRows = 24
)

// Case is a model and what to check it on.
type Case struct {
	// Model is the model, valid.
	Model *ir.Model
	// Rows are the inputs, NumFeatures values each.
	Rows [][]float64
	// Precisions are the working precisions to compile and interpret the
	// model in: one or both.
	Precisions []ir.Precision
	// Prune, when > 0, asks for a smoothstep package pruned with it besides
	// the exact ones, to be compared with the model the pruning makes
	// (smoothstep.Options.Effective).
	Prune float64
	// Profile names the profile the model was decoded with; Chunk is the
	// index of its chunk, Copy that of the model among the models of its
	// chunk (0 for the first).
	Profile     Profile
	Chunk, Copy int
}

// Name describes where the case comes from, for messages: "chunk 2 (copy
// 1), profile latent".
func (c *Case) Name() string {
	return fmt.Sprintf("chunk %d (copy %d), profile %s", c.Chunk, c.Copy, c.Profile)
}

// Decode decodes data into at least MinModels and at most MaxModels cases.
// The same bytes always give the same cases.
func Decode(data []byte) []Case {
	chunks := bytes.Split(data, []byte{Separator})
	if len(chunks) > MaxModels {
		chunks = chunks[:MaxModels]
	}
	n := max(len(chunks), MinModels)
	cases := make([]Case, n)
	for i := range cases {
		c := i % len(chunks)
		cases[i] = DecodeChunk(chunks[c], uint64(i/len(chunks)))
		cases[i].Chunk, cases[i].Copy = c, i/len(chunks)
	}
	return cases
}

// DecodeChunk decodes one chunk (bytes without Separator; a Separator is
// read as any other byte) into a case; k, the number of the copy, selects
// the pseudo-random stream that follows the chunk's bytes.
func DecodeChunk(chunk []byte, k uint64) Case {
	h := fnv.New64a()
	h.Write(chunk)
	seed := h.Sum64() ^ k*0x9e3779b97f4a7c15
	s := &stream{data: chunk, rng: rand.New(rand.NewPCG(seed, k))}
	d := &decoder{s: s, first: k == 0}
	d.prof = Profile(s.intn(int(numProfiles)))
	var m *ir.Model
	if d.prof == RandModel {
		m = d.randModel()
	} else {
		m = d.model()
	}
	if err := m.Validate(); err != nil {
		panic(fmt.Sprintf("fuzzmodel: profile %s decoded an invalid model: %v", d.prof, err))
	}
	c := Case{Model: m, Profile: d.prof}
	switch s.intn(4) {
	case 0:
		c.Precisions = []ir.Precision{ir.Float64}
	case 1:
		c.Precisions = []ir.Precision{ir.Float32}
	default:
		c.Precisions = []ir.Precision{ir.Float64, ir.Float32}
	}
	if hasSoft(m) && s.chance(48) {
		c.Prune = []float64{1e-300, 0.01, 0.1, 0.5, 1, 2, 1e300}[s.intn(7)]
	}
	c.Rows = d.rows(m)
	return c
}

// stream is the chunk's bytes, then pseudo-random bytes.
type stream struct {
	data []byte
	rng  *rand.Rand
}

// byte returns the next byte.
func (s *stream) byte() byte {
	if len(s.data) > 0 {
		b := s.data[0]
		s.data = s.data[1:]
		return b
	}
	return byte(s.rng.Uint32())
}

// intn returns a number in [0, n), 0 < n <= 256, from one byte.
func (s *stream) intn(n int) int { return int(s.byte()) % n }

// chance returns true with probability p/256.
func (s *stream) chance(p int) bool { return int(s.byte()) < p }

// uint64 returns a number of eight bytes.
func (s *stream) uint64() uint64 {
	var b [8]byte
	for i := range b {
		b[i] = s.byte()
	}
	return binary.LittleEndian.Uint64(b[:])
}

// Profile is a family of models: which kinds of nodes and features a
// chunk's model tends to have.
type Profile uint8

// Profiles.
const (
	Mixed       Profile = iota // every kind of node, latent trees sometimes
	Axis                       // axis splits and constant leaves: every backend, quickscorer's tables
	Oblique                    // oblique splits mostly
	Soft                       // soft splits of every width among hard ones
	TEL                        // perfect dense soft trees: smoothstep's level groups, their frontier overflowing sometimes
	Categorical                // categorical splits mostly
	SoftmaxLeaf                // vector trees with softmax leaves
	Latent                     // latent trees and their read-out
	Elu                        // latent trees through elu
	Float32                    // Float32Compare and Float32Sum
	ZeroGamma                  // soft splits of width 0 (hard), among hard ones
	RandModel                  // a model of internal/randmodel, its options and seed chosen
	numProfiles
)

var profileNames = [...]string{"mixed", "axis", "oblique", "soft", "tel", "categorical", "softmax", "latent", "elu", "float32", "zerogamma", "randmodel"}

func (p Profile) String() string {
	if int(p) < len(profileNames) {
		return profileNames[p]
	}
	return fmt.Sprintf("profile%d", p)
}

// mix is what a profile draws: weights of the split kinds, and chances
// (out of 256) of the rest.
type mix struct {
	axis, oblique, soft, categorical int
	softmax                          int // a leaf of a vector tree is a softmax leaf
	latent                           int // the model has latent trees
	elu                              int // a latent tree goes through elu
	f32                              int // Float32Compare; Float32Sum likewise
	perfect                          int // a tree is perfect
	zeroGamma                        int // a soft node has width 0
}

var mixes = [numProfiles]mix{
	Mixed:       {axis: 4, oblique: 2, soft: 2, categorical: 2, softmax: 48, latent: 32, elu: 128, f32: 48, perfect: 32, zeroGamma: 48},
	Axis:        {axis: 1, f32: 64, perfect: 96},
	Oblique:     {axis: 1, oblique: 4, categorical: 1, softmax: 32, f32: 48, perfect: 32},
	Soft:        {axis: 1, oblique: 1, soft: 4, categorical: 1, softmax: 48, f32: 32, perfect: 48, zeroGamma: 32},
	TEL:         {axis: 1, soft: 8, softmax: 32, f32: 32, perfect: 224, zeroGamma: 8},
	Categorical: {axis: 1, categorical: 4, softmax: 32, f32: 64, perfect: 32},
	SoftmaxLeaf: {axis: 2, oblique: 1, soft: 1, categorical: 1, softmax: 160, f32: 32, perfect: 32, zeroGamma: 64},
	Latent:      {axis: 3, oblique: 1, categorical: 1, softmax: 32, latent: 256, elu: 64, f32: 48, perfect: 32},
	Elu:         {axis: 2, oblique: 1, latent: 256, elu: 256, f32: 48, perfect: 32},
	Float32:     {axis: 4, oblique: 1, categorical: 2, softmax: 32, f32: 208, perfect: 48},
	ZeroGamma:   {axis: 2, oblique: 1, soft: 3, categorical: 1, softmax: 48, f32: 48, perfect: 48, zeroGamma: 256},
}

// decoder decodes one chunk.
type decoder struct {
	s    *stream
	prof Profile
	mix  mix
	m    *ir.Model
	// telDepth is the depth of the model's first TEL tree, which later
	// ones mostly share: runs of them make level groups.
	telDepth int
	// bigTEL makes the model of profile TEL three perfect soft trees of
	// depth 8 over at most 3 features, often of a width that lets every
	// row reach every leaf: more nodes than a level of the smoothstep
	// backend's frontier holds (lvMaxCap).
	bigTEL bool
	// first is set for the first model of a chunk, the only one that may be
	// big (bigTEL): the budget of an input builds few of them.
	first bool
}

// Numbers that models and rows hit: randmodel.Pool and the edges of
// float32 and float64, category edges, and round numbers.
var special = []float64{
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 2.2250738585072014e-308, // smallest normal
	math.MaxFloat64, -math.MaxFloat64, math.MaxFloat32, -math.MaxFloat32,
	float64(math.SmallestNonzeroFloat32), -float64(math.SmallestNonzeroFloat32),
	1 << 31, 1<<31 - 1, 1<<31 - 0.5, 1<<31 + 1, -1, -0.5, -1 + 0x1p-52, 0.5, 1 << 24, 1<<24 + 1,
	63, 64, 127.5, 5000, 5000.5, 0.25, 4, 10, 100, 1e-7, 1e7, 709.78, -745.2, 88.72, -103.97,
}

// pool is randmodel.Pool, drawn from by num and finite.
var pool = randmodel.Pool()

// num returns a finite number: mostly one of the pool of interesting
// numbers or a small multiple of 1/4, sometimes any float64 or float32
// bit pattern (made finite).
func (d *decoder) num() float64 {
	s := d.s
	switch b := s.byte(); {
	case b < 48:
		return pool[int(b)%len(pool)]
	case b < 80:
		return special[int(b-48)%len(special)]
	case b < 176:
		return float64(int(b)-128) / 4
	case b < 216:
		return float64(int16(uint16(s.byte())|uint16(s.byte())<<8)) / 256
	case b < 232:
		return float64(int8(s.byte())) * math.Pow(10, float64(s.intn(13))-6)
	case b < 244:
		return finite(float64(math.Float32frombits(uint32(s.uint64()))))
	default:
		return finite(math.Float64frombits(s.uint64()))
	}
}

// finite returns v, or a finite number made of its bits when v is NaN or
// ±Inf.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return pool[int(math.Float64bits(v)%uint64(len(pool)))]
	}
	return v
}

// threshold returns the threshold of an axis split: mostly a round number
// or a number of the pools.
func (d *decoder) threshold() float64 {
	if d.s.chance(96) {
		return []float64{0, 0.5, -0.5, 1, -1, 2, 0.25, 1.0 / 3, 0.1, 3.5, 5000.9, 1 << 31, 1<<24 + 1}[d.s.intn(13)]
	}
	return d.num()
}

// gammas are the widths of soft nodes, the extremes of the smoothstep
// tests included.
var gammas = []float64{1, 0.1, 10, 0.5, 2, 1e-320, 1e-45, 1e-300, 3e38, 1e39, 1e300, 4, 0.01, 100}

func (d *decoder) gamma() float64 {
	if d.s.chance(d.mix.zeroGamma) {
		return 0
	}
	if d.s.chance(32) {
		return math.Abs(d.num())
	}
	return gammas[d.s.intn(len(gammas))]
}

// activity returns a latent node's activity, in [0, 1].
func (d *decoder) activity() *float64 {
	var a float64
	switch b := d.s.byte(); {
	case b < 128:
		a = float64(b%9) / 8
	case b < 192:
		a = []float64{1e-300, 5e-324, 0.1, 1.0 / 3, 0.999999, 1e-40, 1 - 0x1p-53}[b%7]
	default:
		a = float64(d.s.byte()) / 255
	}
	return &a
}

// sparse returns the indices and weights of an oblique or soft split or a
// softmax row: every feature, one, a random subset, or none.
func (d *decoder) sparse(dense bool) ([]int, []float64) {
	p := d.m.NumFeatures
	var idx []int
	switch mode := d.s.intn(8); {
	case dense || mode < 2:
		for j := 0; j < p; j++ {
			idx = append(idx, j)
		}
	case mode < 4:
		idx = []int{d.s.intn(p)}
	case mode == 4:
		// none: the margin is the bias
	default:
		mask := d.s.byte()
		for j := 0; j < p; j++ {
			if mask&(1<<j) != 0 {
				idx = append(idx, j)
			}
		}
	}
	var w []float64
	for range idx {
		w = append(w, d.num())
	}
	return idx, w
}

// categories returns the categories of a categorical split: strictly
// increasing, in 0..MaxCategory, possibly none.
func (d *decoder) categories() []int {
	var cats []int
	n := d.s.intn(7)
	for i := 0; i < n; i++ {
		switch b := d.s.byte(); {
		case b < 160:
			cats = append(cats, int(b%12))
		case b < 200:
			cats = append(cats, 60+int(b%72)) // around the second bitset word
		case b < 230:
			cats = append(cats, []int{255, 256, 1000, 5000, 5001, 1 << 24, 1<<24 + 1}[b%7])
		default:
			cats = append(cats, []int{ir.MaxCategory, ir.MaxCategory - 1, 1 << 30, 65535, 65536}[b%5])
		}
	}
	slices.Sort(cats)
	return slices.Compact(cats)
}

// model decodes a model node by node.
func (d *decoder) model() *ir.Model {
	s := d.s
	d.mix = mixes[d.prof]
	mx := &d.mix
	m := &ir.Model{FormatVersion: ir.FormatVersion, Aggregation: ir.Sum}
	d.m = m
	d.bigTEL = d.prof == TEL && s.chance(12) && d.first
	m.Task = []ir.Task{ir.Regression, ir.Binary, ir.Multiclass, ir.MultiOutput}[s.intn(4)]
	if d.prof == SoftmaxLeaf && m.Task != ir.Multiclass && s.chance(160) {
		m.Task = ir.Multiclass
	}
	k := s.byte()
	switch m.Task {
	case ir.Binary:
		m.NumOutputs = 1
	case ir.Multiclass:
		m.NumOutputs = 2 + int(k)%4
	case ir.Regression:
		m.NumOutputs = []int{1, 1, 1, 2, 3}[int(k)%5]
	default:
		m.NumOutputs = 1 + int(k)%4
	}
	m.NumFeatures = 1 + s.intn(MaxFeatures)
	if d.bigTEL {
		m.NumFeatures = min(m.NumFeatures, 3)
	}
	links := []ir.Link{ir.Identity, ir.Sigmoid, ir.Exp, ir.Softmax}
	if m.NumOutputs < 2 {
		links = links[:3]
	}
	m.Link = links[s.intn(len(links))]
	if m.IsClassifier() && s.chance(128) {
		m.ClassNames = make([]string, max(m.NumOutputs, 2))
		for i := range m.ClassNames {
			m.ClassNames[i] = fmt.Sprintf("c%d", i)
		}
	}
	if s.chance(128) {
		for range m.NumOutputs {
			m.BaseScore = append(m.BaseScore, d.num())
		}
	}
	if s.chance(64) {
		m.Preprocess = &ir.Affine{}
		for range m.NumFeatures {
			shift, scale := 0.0, 1.0
			if s.chance(192) {
				shift, scale = d.num(), d.num()
			}
			m.Preprocess.Shift = append(m.Preprocess.Shift, shift)
			m.Preprocess.Scale = append(m.Preprocess.Scale, scale)
		}
	}
	if s.chance(32) {
		m.FeatureNames = make([]string, m.NumFeatures)
		for j := range m.FeatureNames {
			m.FeatureNames[j] = fmt.Sprintf("x%d", j)
		}
	}
	m.Float32Compare = s.chance(mx.f32)
	m.Float32Sum = s.chance(mx.f32)
	mean := s.chance(40)

	trees := []int{0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 8}[s.intn(12)]
	switch {
	case d.bigTEL:
		trees = 3
	case d.prof == TEL:
		trees = 1 + s.intn(4)
	}
	for range trees {
		m.Trees = append(m.Trees, d.tree(false))
	}
	if mean {
		m.Aggregation = ir.Mean
		for _, n := range m.TreesPerOutput() {
			if n == 0 {
				// Mean needs a tree for every output.
				m.Trees = append(m.Trees, d.treeFor(ir.AllOutputs, false))
				break
			}
		}
	}
	if s.chance(mx.latent) {
		d.latent()
	}
	if s.chance(24) {
		if n := len(m.Trees) - countLatent(m); n > 0 {
			// A whole number of rounds (no effect on predictions).
			var divs []int
			for r := 1; r <= n; r++ {
				if n%r == 0 {
					divs = append(divs, r)
				}
			}
			m.TreesPerRound = divs[s.intn(len(divs))]
		}
	}
	return m
}

func countLatent(m *ir.Model) int {
	n := 0
	for i := range m.Trees {
		if m.Trees[i].Latent {
			n++
		}
	}
	return n
}

// latent inserts one to three latent trees among the model's trees and
// makes the read-out.
func (d *decoder) latent() {
	m, s := d.m, d.s
	n := 1 + s.intn(3)
	for range n {
		t := d.treeFor(ir.AllOutputs, true)
		if s.chance(d.mix.elu) {
			t.Activation = ir.Elu
		}
		at := len(m.Trees)
		if s.chance(96) {
			at = s.intn(len(m.Trees) + 1)
		}
		m.Trees = slices.Insert(m.Trees, at, t)
	}
	z := m.LatentSize()
	r := &ir.Readout{}
	for range m.NumOutputs {
		row := make([]float64, m.NumFeatures+z)
		for j := range row {
			if s.chance(200) {
				row[j] = d.num()
			}
		}
		r.Weights = append(r.Weights, row)
		r.Bias = append(r.Bias, d.num())
	}
	m.Readout = r
}

// tree decodes a tree that writes one output or all of them.
func (d *decoder) tree(latent bool) ir.Tree {
	out := ir.AllOutputs
	if d.s.chance(112) && !d.bigTEL {
		out = d.s.intn(d.m.NumOutputs)
	}
	return d.treeFor(out, latent)
}

// treeFor decodes a tree writing out (latent trees write AllOutputs): a
// perfect tree (dense soft trees in profile TEL, the shape of TEL's
// trees), or a tree grown node by node, with a depth limit that is
// sometimes large.
func (d *decoder) treeFor(out int, latent bool) ir.Tree {
	s := d.s
	t := ir.Tree{Output: out, Latent: latent}
	if d.prof == TEL && !latent && out == ir.AllOutputs && (s.chance(160) || d.bigTEL) {
		return d.telTree()
	}
	maxDepth := 1 + s.intn(6)
	if s.chance(16) {
		maxDepth = 7 + s.intn(20)
	}
	minDepth := 0
	if s.chance(d.mix.perfect) {
		minDepth = maxDepth
	}
	split := 128 + s.intn(96) // chance of a split above minDepth
	var grow func(depth int) int
	grow = func(depth int) int {
		i := len(t.Nodes)
		t.Nodes = append(t.Nodes, ir.Node{})
		var n ir.Node
		if depth < maxDepth && i < maxNodes && (depth < minDepth || s.chance(split)) {
			n = d.split(&t)
			n.Left = grow(depth + 1)
			n.Right = grow(depth + 1)
		} else {
			n = d.leaf(&t)
		}
		if latent {
			n.Activity = d.activity()
		}
		t.Nodes[i] = n
		return i
	}
	grow(0)
	return t
}

// telTree returns a perfect soft tree drawn as randmodel.SoftTree draws
// those of a Tree Ensemble Layer, with widths and numbers changed here and
// there.
func (d *decoder) telTree() ir.Tree {
	s := d.s
	depth := 1 + s.intn(4)
	if d.telDepth == 0 || s.chance(48) {
		d.telDepth = depth
	}
	depth = d.telDepth
	wide := false
	if d.bigTEL {
		depth, wide = 8, s.chance(128)
	}
	feats := make([]int, d.m.NumFeatures)
	for j := range feats {
		feats[j] = j
	}
	scale := []float64{1, 0.1, 10, 1e-3, 1e3}[s.intn(5)]
	r := rand.New(rand.NewPCG(s.uint64(), 1))
	t := randmodel.SoftTree(r, depth, feats, d.m.NumOutputs, scale)
	for i := range t.Nodes {
		n := &t.Nodes[i]
		if n.Kind == ir.Soft {
			n.Weights = slices.Clone(n.Weights) // SoftTree shares feats only
			if wide {
				n.Gamma = []float64{1e6, 1e300, 3e38}[s.intn(3)]
			} else if s.chance(48) {
				n.Gamma = d.gamma()
			}
			if s.chance(24) {
				n.Weights[s.intn(len(n.Weights))] = d.num()
			}
		} else if s.chance(24) {
			n.Value[s.intn(len(n.Value))] = d.num()
		}
	}
	return t
}

// split decodes a split node for tree t.
func (d *decoder) split(t *ir.Tree) ir.Node {
	s, mx := d.s, &d.mix
	n := ir.Node{DefaultLeft: s.chance(128)}
	oblique, soft, categorical := mx.oblique, mx.soft, mx.categorical
	if t.Latent {
		soft, categorical = 0, 0
		if d.prof == Latent || d.prof == Elu {
			oblique = max(oblique, 1)
		}
	}
	total := mx.axis + oblique + soft + categorical
	u := s.intn(256) * total / 256
	switch {
	case u < mx.axis:
		n.Kind = ir.Axis
		n.Feature = s.intn(d.m.NumFeatures)
		n.Threshold = d.threshold()
		n.LessEqual = s.chance(128)
	case u < mx.axis+oblique:
		n.Kind = ir.Oblique
		n.Indices, n.Weights = d.sparse(false)
		n.Bias = d.num()
		n.LessEqual = s.chance(128)
	case u < mx.axis+oblique+soft:
		n.Kind = ir.Soft
		n.Indices, n.Weights = d.sparse(d.prof == TEL)
		n.Bias = d.num()
		n.Gamma = d.gamma()
	default:
		n.Kind = ir.Categorical
		n.Feature = s.intn(d.m.NumFeatures)
		n.Categories = d.categories()
	}
	return n
}

// leaf decodes a leaf of tree t.
func (d *decoder) leaf(t *ir.Tree) ir.Node {
	if t.Latent {
		return ir.Node{Kind: ir.Leaf}
	}
	k := 1
	if t.Output == ir.AllOutputs {
		k = d.m.NumOutputs
		if d.s.chance(d.mix.softmax) {
			return d.softmaxLeaf()
		}
	}
	v := make([]float64, k)
	for j := range v {
		v[j] = d.num()
	}
	return ir.Node{Kind: ir.Leaf, Value: v}
}

// softmaxLeaf decodes a softmax leaf over a non-empty subset of the
// classes.
func (d *decoder) softmaxLeaf() ir.Node {
	k := d.m.NumOutputs
	mask := d.s.byte()
	if mask&(1<<k-1) == 0 {
		mask = 1 << d.s.intn(k)
	}
	sp := &ir.SoftmaxParams{}
	for c := 0; c < k; c++ {
		if mask&(1<<c) == 0 {
			continue
		}
		idx, w := d.sparse(false)
		sp.Classes = append(sp.Classes, c)
		sp.Rows = append(sp.Rows, ir.SparseRow{Indices: idx, Weights: w})
		sp.Bias = append(sp.Bias, d.num())
	}
	return ir.Node{Kind: ir.SoftmaxLeaf, Softmax: sp}
}

// randModel returns a model of randmodel.Model, its options and seed
// decoded from the stream, kept small enough to build quickly.
func (d *decoder) randModel() *ir.Model {
	s := d.s
	o := randmodel.Options{
		Trees:       s.intn(7),
		MinDepth:    s.intn(4),
		MaxDepth:    1 + s.intn(6),
		Features:    s.intn(MaxFeatures + 1),
		Full:        s.chance(32),
		Dense:       s.chance(48),
		Oblique:     float64(s.intn(5)) / 8,
		Soft:        float64(s.intn(5)) / 8,
		Categorical: float64(s.intn(5)) / 8,
		SoftmaxLeaf: float64(s.intn(5)) / 8,
		Latent:      s.chance(64),
		LatentElu:   s.chance(128),
		Float32Sum:  s.chance(160),
		AxisOnly:    s.chance(24),
		Tricky:      s.chance(192),
	}
	if s.chance(32) {
		o.Task = []ir.Task{ir.Regression, ir.Binary, ir.Multiclass, ir.MultiOutput}[s.intn(4)]
	}
	if s.chance(64) {
		o.Gammas = []float64{gammas[s.intn(len(gammas))], 0, gammas[s.intn(len(gammas))]}
	}
	if s.chance(24) {
		// Trees of a random shape, with many leaves: several words of
		// quickscorer's bitvectors.
		o.Leaves = 2 + s.intn(150)
		o.MinLeaves = s.intn(o.Leaves + 1)
		o.Trees = 1 + s.intn(2)
	}
	if o.Full {
		o.MaxDepth = min(o.MaxDepth, 4)
		o.Trees = min(max(o.Trees, 1), 3)
	}
	return randmodel.Model(s.uint64(), o)
}

// hasSoft reports whether m has a soft node.
func hasSoft(m *ir.Model) bool {
	for i := range m.Trees {
		if m.Trees[i].HasSoft() {
			return true
		}
	}
	return false
}
