package gbdt

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/treegen/treegen/data"
)

// TakeWeights returns the column named name of d as row weights (for
// Options.Weights or Options.ValidWeights), and d without that column. It
// refuses a missing column and a weight that is missing, negative or
// infinite, naming the file, the row (1-based, as the data lines count)
// and the column, and weights that are all 0.
func TakeWeights(d *data.Dataset, name string) ([]float64, *data.Dataset, error) {
	j := slices.Index(d.Features, name)
	if j < 0 {
		return nil, nil, fmt.Errorf("%s has no column %q of weights", d.Source, name)
	}
	w := make([]float64, d.Rows)
	sum := 0.0
	for r := range d.Rows {
		v := d.At(r, j)
		if !(v >= 0) || math.IsInf(v, 0) {
			return nil, nil, fmt.Errorf("%s: row %d: the weight (column %q) is %v; weights must be finite numbers >= 0", d.Source, r+1, name, v)
		}
		w[r] = v
		sum += v
	}
	if !(sum > 0) {
		return nil, nil, fmt.Errorf("%s: the weights (column %q) are all 0", d.Source, name)
	}
	out := *d
	out.Features = slices.Delete(slices.Clone(d.Features), j, j+1)
	out.Cols = d.Cols - 1
	out.X, out.XC = dropColumn(d.X, d.Cols, j), dropColumn(d.XC, d.Cols, j)
	return w, &out, nil
}

// dropColumn returns a copy of the rows of x, cols values each, without
// column j; nil if x is nil.
func dropColumn[F any](x []F, cols, j int) []F {
	if x == nil {
		return nil
	}
	out := make([]F, 0, len(x)/cols*(cols-1))
	for lo := 0; lo < len(x); lo += cols {
		out = append(append(out, x[lo:lo+j]...), x[lo+j+1:lo+cols]...)
	}
	return out
}

// ParseMonotone reads monotone constraints (Options.MonotoneConstraints)
// from spec: "name:+1,name:-1,..." (directions +1, 1, -1 or 0; features
// not named are 0) or XGBoost's "(1,0,-1)", one entry per feature. It
// returns the constraint of each feature of features, nil for an empty
// spec; with features nil it checks the form only. what names the setting
// in errors (a flag, "--monotone").
func ParseMonotone(what, spec string, features []string) ([]int, error) {
	spec = strings.TrimSpace(spec)
	if spec == "" {
		return nil, nil
	}
	bad := fmt.Errorf(`%s must be "name:+1,name:-1,..." or "(1,0,-1,...)", got %q`, what, spec)
	direction := func(s string) (int, bool) {
		switch strings.TrimSpace(s) {
		case "1", "+1":
			return 1, true
		case "-1":
			return -1, true
		case "0":
			return 0, true
		}
		return 0, false
	}
	if strings.HasPrefix(spec, "(") {
		if !strings.HasSuffix(spec, ")") {
			return nil, bad
		}
		var cs []int
		for _, s := range strings.Split(spec[1:len(spec)-1], ",") {
			c, ok := direction(s)
			if !ok {
				return nil, bad
			}
			cs = append(cs, c)
		}
		return cs, nil
	}
	cs := make([]int, len(features))
	for _, item := range strings.Split(spec, ",") {
		i := strings.LastIndex(item, ":")
		if i < 0 {
			return nil, bad
		}
		c, ok := direction(item[i+1:])
		name := strings.TrimSpace(item[:i])
		if !ok || name == "" {
			return nil, bad
		}
		if features == nil {
			continue
		}
		f, err := featureIndex(what, name, features)
		if err != nil {
			return nil, err
		}
		cs[f] = c
	}
	return cs, nil
}

// FeatureIndices returns the indices in features of the comma-separated
// names of spec (for Options.Categorical), nil for an empty spec. what
// names the setting in errors (a flag, "--categorical").
func FeatureIndices(what, spec string, features []string) ([]int, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, nil
	}
	var fs []int
	for _, name := range strings.Split(spec, ",") {
		f, err := featureIndex(what, strings.TrimSpace(name), features)
		if err != nil {
			return nil, err
		}
		fs = append(fs, f)
	}
	return fs, nil
}

// featureIndex returns the index of the feature name in features.
func featureIndex(what, name string, features []string) (int, error) {
	for f, n := range features {
		if n == name {
			return f, nil
		}
	}
	return 0, fmt.Errorf("%s names the feature %q, which the data lacks (its features: %s)", what, name, strings.Join(features, ", "))
}
