package lightgbm

import (
	"math"
	"strconv"
	"strings"

	"github.com/treegen/treegen/ir"
)

// objective is what the objective= line of a model means for the IR.
type objective struct {
	line    string  // the whole objective line, for provenance ("" if absent)
	name    string  // its first token
	task    ir.Task // regression is refined to multi_output for several outputs
	link    ir.Link
	classes int     // num_class:K of multiclass and multiclassova, else 0
	sigmoid float64 // the sigmoid parameter of binary and multiclassova, else 1
}

// objective interprets the objective= line (absent for models trained with
// a custom objective, whose predictions are the raw scores).
func (p *parser) objective(f field, present bool) (objective, error) {
	o := objective{task: ir.Regression, link: ir.Identity, sigmoid: 1}
	if !present {
		return o, nil
	}
	o.line = strings.TrimSpace(f.val)
	toks := strings.Fields(f.val)
	if len(toks) == 0 {
		return o, p.errorf(f.line, "objective is empty")
	}
	o.name = toks[0]
	params := map[string]string{}
	sqrt := false
	for _, t := range toks[1:] {
		if t == "sqrt" {
			sqrt = true
			continue
		}
		if k, v, ok := strings.Cut(t, ":"); ok {
			params[k] = v
		}
	}
	num := func(key string) (float64, error) {
		s, ok := params[key]
		if !ok {
			return 0, p.errorf(f.line, "objective %s: the %s parameter is missing", quote(o.line), key)
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, p.errorf(f.line, "objective %s: %s:%s is not a number", quote(o.line), key, s)
		}
		return v, nil
	}
	sigmoid := func() error {
		v, err := num("sigmoid")
		if err != nil {
			return err
		}
		if !(v > 0) || math.IsInf(v, 0) {
			return p.errorf(f.line, "objective %s: sigmoid must be a finite number > 0, got %v", quote(o.line), v)
		}
		o.sigmoid = v
		return nil
	}
	classes := func() error {
		v, err := num("num_class")
		if err != nil {
			return err
		}
		if v != math.Trunc(v) || v < 2 || v > 1<<20 {
			return p.errorf(f.line, "objective %s: num_class must be an integer from 2 to %d, got %v", quote(o.line), 1<<20, v)
		}
		o.classes = int(v)
		return nil
	}
	switch o.name {
	case "regression", "regression_l1", "quantile", "fair", "mape":
		// These share LightGBM's L2 output conversion: identity, or
		// sign(x)·x² after training on sqrt-transformed labels.
		if sqrt {
			return o, p.errorf(f.line, "objective %s: the sqrt label transform (reg_sqrt) predicts sign(m)·m², which has no IR link", quote(o.line))
		}
	case "huber", "lambdarank", "rank_xendcg":
		// Identity; LightGBM ignores sqrt for huber.
	case "poisson", "gamma", "tweedie":
		o.link = ir.Exp
	case "cross_entropy":
		o.link = ir.Sigmoid
	case "binary":
		o.task, o.link = ir.Binary, ir.Sigmoid
		if err := sigmoid(); err != nil {
			return o, err
		}
	case "multiclass":
		o.task, o.link = ir.Multiclass, ir.Softmax
		if err := classes(); err != nil {
			return o, err
		}
	case "multiclassova":
		o.task, o.link = ir.Multiclass, ir.Sigmoid
		if err := classes(); err != nil {
			return o, err
		}
		if err := sigmoid(); err != nil {
			return o, err
		}
	case "cross_entropy_lambda":
		return o, p.errorf(f.line, "objective %s predicts log(1+exp(m)), which has no IR link", quote(o.line))
	case "custom":
		// Raw scores, as without an objective line.
	default:
		return o, p.errorf(f.line, "unknown objective %s (known: regression, regression_l1, huber, fair, quantile, mape, poisson, gamma, tweedie, binary, multiclass, multiclassova, cross_entropy, lambdarank, rank_xendcg)", quote(o.name))
	}
	return o, nil
}
