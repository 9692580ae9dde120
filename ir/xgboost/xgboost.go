package xgboost

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/treegen/treegen/ir"
)

// Load reads an XGBoost model file: JSON (.json) or UBJSON (.ubj, XGBoost
// 2's default). The format is detected from the content, not from the
// extension. The model is converted as the package documentation describes
// and validated; errors name the file and the culprit.
func Load(path string) (*ir.Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Decode(data, path)
}

// Decode is Load on the bytes of a model file; name (a file name) prefixes
// every error.
func Decode(data []byte, name string) (*ir.Model, error) {
	root, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m, err := convert(root)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("%s: the imported model breaks a rule of the IR (a bug in the XGBoost importer): %w", name, err)
	}
	return m, nil
}

// isUBJSON reports whether data is UBJSON: an object whose first key length
// (or container header) follows its '{' directly, where JSON has whitespace,
// a '"' or a '}'.
func isUBJSON(data []byte) bool {
	if len(data) < 2 || data[0] != '{' {
		return false
	}
	switch data[1] {
	case 'i', 'U', 'I', 'l', 'L', '#', '$', 'N':
		return true
	}
	return false
}

// parse parses a JSON or UBJSON document.
func parse(data []byte) (*value, error) {
	if isUBJSON(data) {
		return parseUBJSON(data)
	}
	text := bytes.TrimLeft(bytes.TrimPrefix(data, []byte("\ufeff")), " \t\r\n")
	switch {
	case len(text) == 0:
		return nil, errors.New("empty file: not an XGBoost model")
	case strings.IndexByte("{[\"-0123456789tfnNI", text[0]) < 0:
		return nil, fmt.Errorf("not an XGBoost model in JSON or UBJSON: the file starts with byte 0x%02x; XGBoost's legacy binary format is not supported (save the model with save_model(\"model.json\") or \"model.ubj\")", text[0])
	}
	return parseJSON(data)
}

// converter turns the parsed document into an ir.Model.
type converter struct {
	version    []int64 // XGBoost's version that saved the model, if known
	numFeature int
	dart       bool
	weights    []float32 // dart: weight_drop, one per tree
}

func convert(root *value) (*ir.Model, error) {
	if root.kind != objectKind {
		return nil, fmt.Errorf("not an XGBoost model: the top level is %s, want an object", root.kind)
	}
	doc := root
	if doc.field("learner") == nil && doc.field("Model") != nil {
		doc = doc.field("Model") // a checkpoint: {"Config": ..., "Model": ...}
	}
	learner := doc.field("learner")
	switch {
	case learner == nil && root.field("format_version") != nil:
		return nil, errors.New(`not an XGBoost model: this is a treegen IR model ("format_version"); load it with ir.Load`)
	case learner == nil:
		return nil, errors.New(`not an XGBoost model: the top-level object has no "learner"`)
	}
	if err := object(learner, "learner"); err != nil {
		return nil, err
	}
	c := &converter{}
	params := map[string]string{}
	if v := doc.field("version"); v != nil {
		version, err := ints(v, "version")
		if err != nil {
			return nil, err
		}
		c.version = version
		parts := make([]string, len(version))
		for i, n := range version {
			parts[i] = strconv.FormatInt(n, 10)
		}
		params["version"] = strings.Join(parts, ".")
	}

	// The booster first: a linear model is refused whatever else it holds.
	gb := learner.field("gradient_booster")
	if err := object(gb, "gradient_booster"); err != nil {
		return nil, err
	}
	booster, err := str(gb.field("name"), "gradient_booster.name")
	if err != nil {
		return nil, err
	}
	switch booster {
	case "gbtree", "dart":
	case "gblinear":
		return nil, errors.New("gblinear models are not tree models: treegen imports the gbtree and dart boosters")
	default:
		return nil, errorf("gradient_booster.name", "unknown booster %q (want gbtree or dart)", booster)
	}
	params["booster"] = booster

	// The objective and the outputs.
	objv := learner.field("objective")
	if err := object(objv, "objective"); err != nil {
		return nil, err
	}
	objName, err := str(objv.field("name"), "objective.name")
	if err != nil {
		return nil, err
	}
	obj, err := lookupObjective(objName)
	if err != nil {
		return nil, err
	}
	params["objective"] = objName
	mp := learner.field("learner_model_param")
	if err := object(mp, "learner_model_param"); err != nil {
		return nil, err
	}
	numFeature, err := param(mp, "learner_model_param", "num_feature", -1)
	if err != nil {
		return nil, err
	}
	if numFeature < 1 || numFeature > math.MaxInt32 {
		return nil, errorf("learner_model_param.num_feature", "must be in 1..%d, got %d", math.MaxInt32, numFeature)
	}
	c.numFeature = int(numFeature)
	numClass, err := param(mp, "learner_model_param", "num_class", 0)
	if err != nil {
		return nil, err
	}
	numTarget, err := param(mp, "learner_model_param", "num_target", 1)
	if err != nil {
		return nil, err
	}
	m := &ir.Model{
		FormatVersion:  ir.FormatVersion,
		Task:           obj.task,
		NumFeatures:    c.numFeature,
		Aggregation:    ir.Sum,
		Link:           obj.link,
		Float32Compare: true,
		Float32Sum:     true,
	}
	switch {
	case numTarget < 1 || numTarget > 1<<16:
		return nil, errorf("learner_model_param.num_target", "must be in 1..65536, got %d", numTarget)
	case numClass < 0 || numClass > 1<<16:
		return nil, errorf("learner_model_param.num_class", "must be in 0..65536, got %d", numClass)
	case obj.multiclass && numClass < 2:
		return nil, errorf("learner_model_param.num_class", "%s needs at least 2 classes, got num_class %d", objName, numClass)
	case obj.multiclass && numTarget > 1:
		return nil, errorf("learner_model_param.num_target", "%s with %d targets is not supported", objName, numTarget)
	case !obj.multiclass && numClass > 1:
		return nil, errorf("learner_model_param.num_class", "num_class %d with objective %s: only multi:softmax and multi:softprob have classes", numClass, objName)
	case obj.multiclass:
		m.NumOutputs = int(numClass)
		for k := 0; k < m.NumOutputs; k++ {
			m.ClassNames = append(m.ClassNames, strconv.Itoa(k))
		}
		params["num_class"] = strconv.Itoa(m.NumOutputs)
	case numTarget > 1:
		m.NumOutputs = int(numTarget)
		m.Task = ir.MultiOutput
		params["num_target"] = strconv.Itoa(m.NumOutputs)
	default:
		m.NumOutputs = 1
		if m.Task == ir.Binary {
			m.ClassNames = []string{"0", "1"}
		}
	}

	// The base margin.
	bsv := mp.field("base_score")
	scores, text, err := parseBaseScore(bsv, m.NumOutputs)
	if err != nil {
		return nil, err
	}
	params["base_score"] = text
	for _, bs := range scores {
		margin, err := obj.toMargin(objName, bs)
		if err != nil {
			return nil, errorf("learner_model_param.base_score", "%v", err)
		}
		m.BaseScore = append(m.BaseScore, float64(margin))
	}

	// Feature names.
	if v := learner.field("feature_names"); v != nil {
		list, err := array(v, "feature_names")
		if err != nil {
			return nil, err
		}
		if len(list) > 0 {
			if len(list) != c.numFeature {
				return nil, errorf("feature_names", "has %d names for %d features (num_feature)", len(list), c.numFeature)
			}
			for i := range list {
				name, err := str(&list[i], fmt.Sprintf("feature_names[%d]", i))
				if err != nil {
					return nil, err
				}
				m.FeatureNames = append(m.FeatureNames, name)
			}
		}
	}

	// The trees.
	model := gb.field("model")
	modelPath := "gradient_booster.model"
	if booster == "dart" {
		inner := gb.field("gbtree")
		if err := object(inner, "gradient_booster.gbtree"); err != nil {
			return nil, err
		}
		model = inner.field("model")
		modelPath = "gradient_booster.gbtree.model"
		if c.weights, err = float32s(gb.field("weight_drop"), "gradient_booster.weight_drop"); err != nil {
			return nil, err
		}
		c.dart = true
	}
	if err := object(model, modelPath); err != nil {
		return nil, err
	}
	if gp := model.field("gbtree_model_param"); gp != nil {
		p := modelPath + ".gbtree_model_param"
		if err := object(gp, p); err != nil {
			return nil, err
		}
		npt, err := param(gp, p, "num_parallel_tree", 1)
		if err != nil {
			return nil, err
		}
		if npt < 1 {
			return nil, errorf(p+".num_parallel_tree", "must be at least 1, got %d", npt)
		}
		params["num_parallel_tree"] = strconv.FormatInt(npt, 10)
		slv, err := param(gp, p, "size_leaf_vector", 0)
		if err != nil {
			return nil, err
		}
		if slv > 1 {
			return nil, errorf(p+".size_leaf_vector", "vector leaves (size_leaf_vector %d, XGBoost's multi_strategy \"multi_output_tree\") are not supported", slv)
		}
		if v := gp.field("num_trees"); v != nil {
			numTrees, err := integer(v, p+".num_trees", true)
			if err != nil {
				return nil, err
			}
			if trees := model.field("trees"); trees != nil && trees.kind == arrayKind && int64(len(trees.list)) != numTrees {
				return nil, errorf(p+".num_trees", "is %d, but the model has %d trees", numTrees, len(trees.list))
			}
		}
	}
	trees, err := array(model.field("trees"), "trees")
	if err != nil {
		return nil, err
	}
	info, err := ints(model.field("tree_info"), "tree_info")
	if err != nil {
		return nil, err
	}
	if len(info) != len(trees) {
		return nil, errorf("tree_info", "has %d entries for %d trees", len(info), len(trees))
	}
	if c.dart && len(c.weights) != len(trees) {
		return nil, errorf("gradient_booster.weight_drop", "has %d weights for %d trees", len(c.weights), len(trees))
	}
	params["num_trees"] = strconv.Itoa(len(trees))
	m.Trees = make([]ir.Tree, len(trees))
	for t := range trees {
		if out := info[t]; out < 0 || out >= int64(m.NumOutputs) {
			what := fmt.Sprintf("%d output", m.NumOutputs)
			if m.NumOutputs > 1 {
				what += "s"
			}
			switch {
			case obj.multiclass:
				what = fmt.Sprintf("%d classes (num_class %d)", m.NumOutputs, m.NumOutputs)
			case m.Task == ir.MultiOutput:
				what = fmt.Sprintf("%d targets (num_target %d)", m.NumOutputs, m.NumOutputs)
			}
			return nil, errorf(fmt.Sprintf("tree_info[%d]", t), "tree %d writes output %d, but the model has %s", t, out, what)
		}
		tree, err := c.tree(t, &trees[t])
		if err != nil {
			return nil, err
		}
		tree.Output = int(info[t])
		m.Trees[t] = tree
	}
	m.Provenance = &ir.Provenance{Producer: "xgboost", Params: params}
	return m, nil
}

// param reads the integer parameter key of object obj (at path), written as
// a string or a number; def < 0 makes it required.
func param(obj *value, path, key string, def int64) (int64, error) {
	v := obj.field(key)
	if v == nil {
		if def < 0 {
			return 0, errorf(path+"."+key, "is missing")
		}
		return def, nil
	}
	return integer(v, path+"."+key, true)
}

// parseBaseScore reads base_score: a number, or a string holding a number
// ("5E-1") or a bracketed list of numbers ("[5E-1]", "[1E0,2E0]"). One value
// serves every output; otherwise there is one per output. It returns the
// values and the text as written.
func parseBaseScore(v *value, outputs int) ([]float32, string, error) {
	const path = "learner_model_param.base_score"
	if v == nil {
		return nil, "", errorf(path, "is missing")
	}
	var texts []string
	text := ""
	switch v.kind {
	case stringKind:
		text = strings.TrimSpace(v.str)
		inner := text
		if strings.HasPrefix(inner, "[") {
			if !strings.HasSuffix(inner, "]") {
				return nil, "", errorf(path, "want a number or a bracketed list of numbers, got %q", v.str)
			}
			inner = inner[1 : len(inner)-1]
		}
		for _, s := range strings.Split(inner, ",") {
			texts = append(texts, strings.TrimSpace(s))
		}
	case textKind, intKind, floatKind:
		f, err := float32Of(v, path, false)
		if err != nil {
			return nil, "", err
		}
		text = strconv.FormatFloat(float64(f), 'g', -1, 32)
		texts = []string{text}
	case arrayKind:
		for i := range v.list {
			f, err := float32Of(&v.list[i], fmt.Sprintf("%s[%d]", path, i), true)
			if err != nil {
				return nil, "", err
			}
			texts = append(texts, strconv.FormatFloat(float64(f), 'g', -1, 32))
		}
		text = "[" + strings.Join(texts, ",") + "]"
	default:
		return nil, "", errorf(path, "want a number or a string, got %s", v.kind)
	}
	var out []float32
	for _, s := range texts {
		f, err := parseFloat32(s, path)
		if err != nil {
			return nil, "", errorf(path, "want a number or a bracketed list of numbers, got %q", text)
		}
		if math.IsNaN(float64(f)) || math.IsInf(float64(f), 0) {
			return nil, "", errorf(path, "%v is not a finite number", f)
		}
		out = append(out, f)
	}
	switch len(out) {
	case outputs:
	case 1:
		for len(out) < outputs {
			out = append(out, out[0])
		}
	default:
		return nil, "", errorf(path, "has %d values for %d outputs", len(out), outputs)
	}
	return out, text, nil
}
