package xgboost

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/treegen/treegen/ir"
)

// objective is how one of XGBoost's objectives maps onto the IR.
type objective struct {
	task ir.Task // the task of a single-output model
	link ir.Link
	// margin turns base_score into the base margin, as XGBoost's
	// ProbToMargin does, in float32.
	margin baseMargin
	// multiclass objectives have num_class outputs.
	multiclass bool
}

// baseMargin is the map from base_score to the base margin.
type baseMargin int

const (
	marginIdentity baseMargin = iota // base_score itself
	marginLogit                      // -logf(1/base_score - 1), base_score in (0, 1)
	marginLog                        // logf(base_score), base_score > 0
)

// objectives maps the objective names of XGBoost (learner.objective.name)
// onto the IR.
var objectives = map[string]objective{
	"binary:logistic": {task: ir.Binary, link: ir.Sigmoid, margin: marginLogit},
	"binary:logitraw": {task: ir.Binary, link: ir.Identity, margin: marginIdentity},
	// reg:logistic regresses a probability in [0, 1]: a regression whose
	// predictions go through the sigmoid, not a classifier.
	"reg:logistic":         {task: ir.Regression, link: ir.Sigmoid, margin: marginLogit},
	"reg:squarederror":     {task: ir.Regression, link: ir.Identity, margin: marginIdentity},
	"reg:linear":           {task: ir.Regression, link: ir.Identity, margin: marginIdentity}, // the old name of reg:squarederror
	"reg:squaredlogerror":  {task: ir.Regression, link: ir.Identity, margin: marginIdentity},
	"reg:pseudohubererror": {task: ir.Regression, link: ir.Identity, margin: marginIdentity},
	"reg:absoluteerror":    {task: ir.Regression, link: ir.Identity, margin: marginIdentity},
	"reg:quantileerror":    {task: ir.Regression, link: ir.Identity, margin: marginIdentity},
	"count:poisson":        {task: ir.Regression, link: ir.Exp, margin: marginLog},
	"reg:gamma":            {task: ir.Regression, link: ir.Exp, margin: marginLog},
	"reg:tweedie":          {task: ir.Regression, link: ir.Exp, margin: marginLog},
	"survival:cox":         {task: ir.Regression, link: ir.Exp, margin: marginLog},
	"survival:aft":         {task: ir.Regression, link: ir.Exp, margin: marginLog},
	"multi:softmax":        {task: ir.Multiclass, link: ir.Softmax, margin: marginIdentity, multiclass: true},
	"multi:softprob":       {task: ir.Multiclass, link: ir.Softmax, margin: marginIdentity, multiclass: true},
	"rank:pairwise":        {task: ir.Regression, link: ir.Identity, margin: marginIdentity},
	"rank:ndcg":            {task: ir.Regression, link: ir.Identity, margin: marginIdentity},
	"rank:map":             {task: ir.Regression, link: ir.Identity, margin: marginIdentity},
}

// refused names the objectives that are known but cannot be expressed.
var refused = map[string]string{
	"binary:hinge": "its prediction is 1 when the margin is > 0 and 0 otherwise, a step that no IR link computes",
}

// knownObjectives lists the supported objective names, sorted.
func knownObjectives() string {
	names := make([]string, 0, len(objectives))
	for name := range objectives {
		names = append(names, name)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// lookupObjective returns the mapping of the objective name.
func lookupObjective(name string) (objective, error) {
	if o, ok := objectives[name]; ok {
		return o, nil
	}
	if why, ok := refused[name]; ok {
		return objective{}, errorf("objective.name", "objective %s is not supported: %s", name, why)
	}
	return objective{}, errorf("objective.name", "unknown objective %q (known: %s)", name, knownObjectives())
}

// toMargin applies the objective's ProbToMargin to base_score in float32
// arithmetic, as XGBoost does: the base margin is a float32.
func (o objective) toMargin(name string, bs float32) (float32, error) {
	var m float32
	switch o.margin {
	case marginIdentity:
		m = bs
	case marginLogit:
		if !(bs > 0 && bs < 1) {
			return 0, fmt.Errorf("base_score %v must be in (0, 1) for %s", bs, name)
		}
		m = -logf(float32(1)/bs - float32(1))
	case marginLog:
		if !(bs > 0) {
			return 0, fmt.Errorf("base_score %v must be > 0 for %s", bs, name)
		}
		m = logf(bs)
	}
	if math.IsNaN(float64(m)) || math.IsInf(float64(m), 0) {
		return 0, fmt.Errorf("base_score %v gives the base margin %v for %s, not a finite number", bs, m, name)
	}
	return m, nil
}

// logf is the single-precision natural logarithm of glibc (2.28 and later)
// on which XGBoost's Linux builds compute base margins: the table-driven
// algorithm of Arm's optimized-routines (MIT licence), whose result is not
// always the correctly rounded one (float32(math.Log(x)) differs for about
// one float32 in 5,000). Its table and polynomial are reproduced
// here, each product rounded on its own: the fused variant that glibc picks
// on CPUs with FMA gives the same bits (checked on every seventh float32).
//
// x must not be negative or NaN.
func logf(x float32) float32 {
	ix := math.Float32bits(x)
	switch {
	case ix == 0x3f800000:
		return 0
	case x == 0:
		return float32(math.Inf(-1))
	case ix >= 0x7f800000: // +Inf (and what the caller excludes)
		return x
	}
	if ix < 0x00800000 { // subnormal: normalize
		ix = math.Float32bits(x * 0x1p23)
		ix -= 23 << 23
	}
	// x = 2^k z, z in [0x3f330000, 2*0x3f330000) as float bits; z is split
	// into 16 subintervals, each with c near its centre.
	const off = 0x3f330000
	tmp := ix - off
	i := (tmp >> (23 - logfTableBits)) % (1 << logfTableBits)
	k := int32(tmp) >> 23
	iz := ix - tmp&(0x1ff<<23)
	invc, logc := logfTable[i][0], logfTable[i][1]
	z := float64(math.Float32frombits(iz))
	// log(x) = log1p(z/c - 1) + log(c) + k*ln2
	r := float64(z*invc) - 1
	y0 := logc + float64(float64(k)*logfLn2)
	r2 := r * r
	y := float64(logfPoly[1]*r) + logfPoly[2]
	y = float64(logfPoly[0]*r2) + y
	y = float64(y*r2) + (y0 + r)
	return float32(y)
}

const (
	logfTableBits = 4
	logfLn2       = 0x1.62e42fefa39efp-1
)

// logfTable holds 1/c and log(c) for each subinterval.
var logfTable = [1 << logfTableBits][2]float64{
	{0x1.661ec79f8f3bep+0, -0x1.57bf7808caadep-2},
	{0x1.571ed4aaf883dp+0, -0x1.2bef0a7c06ddbp-2},
	{0x1.49539f0f010bp+0, -0x1.01eae7f513a67p-2},
	{0x1.3c995b0b80385p+0, -0x1.b31d8a68224e9p-3},
	{0x1.30d190c8864a5p+0, -0x1.6574f0ac07758p-3},
	{0x1.25e227b0b8eap+0, -0x1.1aa2bc79c81p-3},
	{0x1.1bb4a4a1a343fp+0, -0x1.a4e76ce8c0e5ep-4},
	{0x1.12358f08ae5bap+0, -0x1.1973c5a611cccp-4},
	{0x1.0953f419900a7p+0, -0x1.252f438e10c1ep-5},
	{0x1p+0, 0x0p+0},
	{0x1.e608cfd9a47acp-1, 0x1.aa5aa5df25984p-5},
	{0x1.ca4b31f026aap-1, 0x1.c5e53aa362eb4p-4},
	{0x1.b2036576afce6p-1, 0x1.526e57720db08p-3},
	{0x1.9c2d163a1aa2dp-1, 0x1.bc2860d22477p-3},
	{0x1.886e6037841edp-1, 0x1.1058bc8a07ee1p-2},
	{0x1.767dcf5534862p-1, 0x1.4043057b6ee09p-2},
}

// logfPoly approximates log1p(r) - r = A0 r^4 + A1 r^3 + A2 r^2.
var logfPoly = [3]float64{-0x1.00ea348b88334p-2, 0x1.5575b0be00b6ap-2, -0x1.ffffef20a4123p-2}
