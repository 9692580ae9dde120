package xgboost

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/treegen/treegen/ir"
)

// Options tune the import.
type Options struct {
	// AllRounds keeps every tree of the file, as XGBoost's Booster.predict
	// does. By default, a model that records best_iteration (in
	// learner.attributes, written by early stopping) keeps its first
	// best_iteration+1 rounds, as XGBoost's scikit-learn interface
	// (XGBClassifier.predict, predict_proba, XGBRegressor.predict, apply)
	// predicts.
	AllRounds bool
}

// Load reads an XGBoost model file: JSON (.json) or UBJSON (.ubj, XGBoost
// 2's default). The format is detected from the content, not from the
// extension. The model is converted as the package documentation describes
// and validated; errors name the file and the culprit. It is LoadWith with
// the default Options: a model that records best_iteration keeps the
// rounds up to it.
func Load(path string) (*ir.Model, error) {
	return LoadWith(path, Options{})
}

// LoadWith is Load with options.
func LoadWith(path string, o Options) (*ir.Model, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return DecodeWith(data, path, o)
}

// Decode is Load on the bytes of a model file; name (a file name) prefixes
// every error.
func Decode(data []byte, name string) (*ir.Model, error) {
	return DecodeWith(data, name, Options{})
}

// DecodeWith is Decode with options.
func DecodeWith(data []byte, name string, o Options) (*ir.Model, error) {
	root, err := parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	m, err := convert(root, o)
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
	parallel   int       // num_parallel_tree
	// params are the provenance's params, gathered as the model is read.
	params map[string]string
}

// convert turns the parsed document root into an ir.Model. The parts are
// read in a fixed order, so that a model with several faults is reported by
// its first: the version, the booster, the objective, the outputs, the base
// score, the feature names, the trees, then the rounds (best_iteration).
func convert(root *value, o Options) (*ir.Model, error) {
	doc, learner, err := findLearner(root)
	if err != nil {
		return nil, err
	}
	c := &converter{params: map[string]string{}, parallel: 1}
	if err := c.readVersion(doc); err != nil {
		return nil, err
	}
	// The booster first: a linear model is refused whatever else it holds.
	gb, booster, err := c.readBooster(learner)
	if err != nil {
		return nil, err
	}
	objName, obj, err := c.readObjective(learner)
	if err != nil {
		return nil, err
	}
	m, mp, err := c.newModel(learner, objName, obj)
	if err != nil {
		return nil, err
	}
	if err := c.baseScore(m, mp, objName, obj); err != nil {
		return nil, err
	}
	if err := c.featureNames(m, learner); err != nil {
		return nil, err
	}
	model, err := c.treeModel(gb, booster)
	if err != nil {
		return nil, err
	}
	if err := c.trees(m, model, obj); err != nil {
		return nil, err
	}
	if err := c.rounds(m, learner, o); err != nil {
		return nil, err
	}
	m.FormatVersion = m.MinFormatVersion() // 1.3 with split statistics
	m.Provenance = &ir.Provenance{Producer: "xgboost", Params: c.params}
	return m, nil
}

// findLearner returns the document that holds the model, root or the
// "Model" of a checkpoint, and its "learner" object.
func findLearner(root *value) (doc, learner *value, err error) {
	if root.kind != objectKind {
		return nil, nil, fmt.Errorf("not an XGBoost model: the top level is %s, want an object", root.kind)
	}
	doc = root
	if doc.field("learner") == nil && doc.field("Model") != nil {
		doc = doc.field("Model") // a checkpoint: {"Config": ..., "Model": ...}
	}
	learner = doc.field("learner")
	switch {
	case learner == nil && root.field("format_version") != nil:
		return nil, nil, errors.New(`not an XGBoost model: this is a treegen IR model ("format_version"); load it with ir.Load`)
	case learner == nil:
		return nil, nil, errors.New(`not an XGBoost model: the top-level object has no "learner"`)
	}
	if err := object(learner, "learner"); err != nil {
		return nil, nil, err
	}
	return doc, learner, nil
}

// maxMajor is the newest major version of XGBoost whose models treegen
// reads: the JSON schema of versions 1 to 3 is the same.
const maxMajor = 3

// joinInts writes a version as "1.7.4".
func joinInts(v []int64) string {
	parts := make([]string, len(v))
	for i, n := range v {
		parts[i] = strconv.FormatInt(n, 10)
	}
	return strings.Join(parts, ".")
}

// readVersion reads the version of XGBoost that saved the model, when doc
// has one, into c.version and the "version" param. It refuses a major
// version other than 1 to maxMajor.
func (c *converter) readVersion(doc *value) error {
	v := doc.field("version")
	if v == nil {
		return nil
	}
	version, err := ints(v, "version")
	if err != nil {
		return err
	}
	if len(version) > 0 && (version[0] < 1 || version[0] > maxMajor) {
		return fmt.Errorf("version: XGBoost %s saved this model, and treegen reads the JSON and UBJSON models of XGBoost 1.0 to %d.x: a model of another major version may mean something else (re-save it with a supported XGBoost)", joinInts(version), maxMajor)
	}
	c.version = version
	c.params["version"] = joinInts(version)
	return nil
}

// readBooster returns learner's gradient_booster object and its name,
// gbtree or dart; it refuses gblinear and unknown boosters.
func (c *converter) readBooster(learner *value) (gb *value, booster string, err error) {
	gb = learner.field("gradient_booster")
	if err := object(gb, "gradient_booster"); err != nil {
		return nil, "", err
	}
	booster, err = str(gb.field("name"), "gradient_booster.name")
	if err != nil {
		return nil, "", err
	}
	switch booster {
	case "gbtree", "dart":
	case "gblinear":
		return nil, "", errors.New("gblinear models are not tree models: treegen imports the gbtree and dart boosters")
	default:
		return nil, "", errorf("gradient_booster.name", "unknown booster %q (want gbtree or dart)", booster)
	}
	c.params["booster"] = booster
	return gb, booster, nil
}

// readObjective returns the name of learner's objective and its mapping
// onto the IR (task, link and base margin).
func (c *converter) readObjective(learner *value) (string, objective, error) {
	objv := learner.field("objective")
	if err := object(objv, "objective"); err != nil {
		return "", objective{}, err
	}
	objName, err := str(objv.field("name"), "objective.name")
	if err != nil {
		return "", objective{}, err
	}
	obj, err := lookupObjective(objName)
	if err != nil {
		return "", objective{}, err
	}
	c.params["objective"] = objName
	return objName, obj, nil
}

// newModel reads learner_model_param, which it returns too, and returns the
// model without base score, feature names, trees or provenance: its
// features, task, link and outputs, for the objective obj named objName.
func (c *converter) newModel(learner *value, objName string, obj objective) (*ir.Model, *value, error) {
	mp := learner.field("learner_model_param")
	if err := object(mp, "learner_model_param"); err != nil {
		return nil, nil, err
	}
	numFeature, err := param(mp, "learner_model_param", "num_feature", -1)
	if err != nil {
		return nil, nil, err
	}
	if numFeature < 1 || numFeature > ir.MaxFeatures {
		return nil, nil, errorf("learner_model_param.num_feature", "must be in 1..%d (treegen's limit, ir.MaxFeatures), got %d", ir.MaxFeatures, numFeature)
	}
	c.numFeature = int(numFeature)
	numClass, err := param(mp, "learner_model_param", "num_class", 0)
	if err != nil {
		return nil, nil, err
	}
	numTarget, err := param(mp, "learner_model_param", "num_target", 1)
	if err != nil {
		return nil, nil, err
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
	if err := c.setOutputs(m, objName, obj, numClass, numTarget); err != nil {
		return nil, nil, err
	}
	return m, mp, nil
}

// setOutputs sets the outputs of m, its class names and, for a multiclass
// or multi-target model, its task, from num_class and num_target; it
// refuses the combinations that the objective obj named objName rules out.
func (c *converter) setOutputs(m *ir.Model, objName string, obj objective, numClass, numTarget int64) error {
	switch {
	case numTarget < 1 || numTarget > 1<<16:
		return errorf("learner_model_param.num_target", "must be in 1..65536, got %d", numTarget)
	case numClass < 0 || numClass > ir.MaxOutputs:
		return errorf("learner_model_param.num_class", "must be in 0..%d (ir.MaxOutputs), got %d", ir.MaxOutputs, numClass)
	case obj.multiclass && numClass < 2:
		return errorf("learner_model_param.num_class", "%s needs at least 2 classes, got num_class %d", objName, numClass)
	case obj.multiclass && numTarget > 1:
		return errorf("learner_model_param.num_target", "%s with %d targets is not supported", objName, numTarget)
	case !obj.multiclass && numClass > 1:
		return errorf("learner_model_param.num_class", "num_class %d with objective %s: only multi:softmax and multi:softprob have classes", numClass, objName)
	case obj.multiclass:
		m.NumOutputs = int(numClass)
		for k := 0; k < m.NumOutputs; k++ {
			m.ClassNames = append(m.ClassNames, strconv.Itoa(k))
		}
		c.params["num_class"] = strconv.Itoa(m.NumOutputs)
	case numTarget > 1:
		m.NumOutputs = int(numTarget)
		m.Task = ir.MultiOutput
		c.params["num_target"] = strconv.Itoa(m.NumOutputs)
	default:
		m.NumOutputs = 1
		if m.Task == ir.Binary {
			m.ClassNames = []string{"0", "1"}
		}
	}
	return nil
}

// baseScore sets the base margin of m from the base_score of
// learner_model_param mp, mapped by the objective obj named objName.
func (c *converter) baseScore(m *ir.Model, mp *value, objName string, obj objective) error {
	scores, text, err := parseBaseScore(mp.field("base_score"), m.NumOutputs)
	if err != nil {
		return err
	}
	c.params["base_score"] = text
	for _, bs := range scores {
		margin, err := obj.toMargin(objName, bs)
		if err != nil {
			return errorf("learner_model_param.base_score", "%v", err)
		}
		m.BaseScore = append(m.BaseScore, float64(margin))
	}
	return nil
}

// featureNames sets the feature names of m from learner's feature_names,
// when it has a non-empty list: one name per feature.
func (c *converter) featureNames(m *ir.Model, learner *value) error {
	v := learner.field("feature_names")
	if v == nil {
		return nil
	}
	list, err := array(v, "feature_names")
	if err != nil {
		return err
	}
	if len(list) == 0 {
		return nil
	}
	if len(list) != c.numFeature {
		return errorf("feature_names", "has %d names for %d features (num_feature)", len(list), c.numFeature)
	}
	for i := range list {
		name, err := str(&list[i], fmt.Sprintf("feature_names[%d]", i))
		if err != nil {
			return err
		}
		m.FeatureNames = append(m.FeatureNames, name)
	}
	return nil
}

// treeModel returns the object that holds the trees of the gradient
// booster gb named booster: its "model", or for dart the model of its
// "gbtree", whose weight_drop it reads into c.weights. It checks the
// model's gbtree_model_param.
func (c *converter) treeModel(gb *value, booster string) (*value, error) {
	model := gb.field("model")
	modelPath := "gradient_booster.model"
	if booster == "dart" {
		inner := gb.field("gbtree")
		if err := object(inner, "gradient_booster.gbtree"); err != nil {
			return nil, err
		}
		model = inner.field("model")
		modelPath = "gradient_booster.gbtree.model"
		var err error
		if c.weights, err = float32s(gb.field("weight_drop"), "gradient_booster.weight_drop"); err != nil {
			return nil, err
		}
		c.dart = true
	}
	if err := object(model, modelPath); err != nil {
		return nil, err
	}
	if err := c.modelParam(model, modelPath); err != nil {
		return nil, err
	}
	return model, nil
}

// modelParam checks the gbtree_model_param of model (at modelPath), when
// it has one, and records num_parallel_tree: it refuses vector leaves and
// a num_trees that is not the number of trees.
func (c *converter) modelParam(model *value, modelPath string) error {
	gp := model.field("gbtree_model_param")
	if gp == nil {
		return nil
	}
	p := modelPath + ".gbtree_model_param"
	if err := object(gp, p); err != nil {
		return err
	}
	npt, err := param(gp, p, "num_parallel_tree", 1)
	if err != nil {
		return err
	}
	if npt < 1 {
		return errorf(p+".num_parallel_tree", "must be at least 1, got %d", npt)
	}
	if npt > 1<<16 {
		return errorf(p+".num_parallel_tree", "must be at most 65536, got %d", npt)
	}
	c.parallel = int(npt)
	c.params["num_parallel_tree"] = strconv.FormatInt(npt, 10)
	slv, err := param(gp, p, "size_leaf_vector", 0)
	if err != nil {
		return err
	}
	if slv > 1 {
		return errorf(p+".size_leaf_vector", "vector leaves (size_leaf_vector %d, XGBoost's multi_strategy \"multi_output_tree\") are not supported", slv)
	}
	if v := gp.field("num_trees"); v != nil {
		numTrees, err := integer(v, p+".num_trees", true)
		if err != nil {
			return err
		}
		if trees := model.field("trees"); trees != nil && trees.kind == arrayKind && int64(len(trees.list)) != numTrees {
			return errorf(p+".num_trees", "is %d, but the model has %d trees", numTrees, len(trees.list))
		}
	}
	return nil
}

// trees converts the trees of model into m.Trees, each writing the output
// that tree_info gives it; obj is the objective, for the errors.
func (c *converter) trees(m *ir.Model, model *value, obj objective) error {
	trees, err := array(model.field("trees"), "trees")
	if err != nil {
		return err
	}
	info, err := ints(model.field("tree_info"), "tree_info")
	if err != nil {
		return err
	}
	if len(info) != len(trees) {
		return errorf("tree_info", "has %d entries for %d trees", len(info), len(trees))
	}
	if c.dart && len(c.weights) != len(trees) {
		return errorf("gradient_booster.weight_drop", "has %d weights for %d trees", len(c.weights), len(trees))
	}
	c.params["num_trees"] = strconv.Itoa(len(trees))
	m.Trees = make([]ir.Tree, len(trees))
	for t := range trees {
		if out := info[t]; out < 0 || out >= int64(m.NumOutputs) {
			return errorf(fmt.Sprintf("tree_info[%d]", t), "tree %d writes output %d, but the model has %s", t, out, outputsOf(m, obj))
		}
		tree, err := c.tree(t, &trees[t])
		if err != nil {
			return err
		}
		tree.Output = int(info[t])
		m.Trees[t] = tree
	}
	return nil
}

// rounds groups the trees of m into boosting rounds of num_parallel_tree
// trees per output (output by output, as XGBoost commits them), records the
// round size in m.TreesPerRound where the IR's default would differ, and
// applies learner.attributes.best_iteration unless o.AllRounds.
func (c *converter) rounds(m *ir.Model, learner *value, o Options) error {
	const path = "attributes.best_iteration"
	size := c.parallel * m.NumOutputs
	n := len(m.Trees)
	v := learner.field("attributes").field("best_iteration")
	if n%size != 0 {
		// Not a file XGBoost writes: its trees are imported as they are,
		// with the IR's default round size, unless a round must be cut.
		if v == nil {
			return nil
		}
		return errorf(path, "cannot be applied: the model has %s, not a whole number of rounds of %s (num_parallel_tree %d × %s)", plural(n, "tree"), plural(size, "tree"), c.parallel, plural(m.NumOutputs, "output"))
	}
	saved := n / size
	if v != nil {
		best, err := integer(v, path, true)
		if err != nil {
			return err
		}
		if best < 0 || best >= int64(saved) {
			return errorf(path, "is %d, but the model has %s of %s (best_iteration counts rounds from 0)", best, plural(saved, "round"), plural(size, "tree"))
		}
		// XGBoost 1.x records best_iteration = the last round even without
		// early stopping: such a file imports as if it had none.
		if int(best)+1 < saved {
			kept := saved
			if !o.AllRounds {
				kept = int(best) + 1
				m.Trees = slices.Clone(m.Trees[:kept*size])
			}
			found := v.str
			if v.kind != stringKind {
				found = describe(v)
			}
			c.params["best_iteration"] = found
			c.params["rounds_saved"] = strconv.Itoa(saved)
			c.params["rounds_kept"] = strconv.Itoa(kept)
		}
	}
	if size != m.DefaultTreesPerRound() {
		m.TreesPerRound = size
	}
	return nil
}

// plural returns "1 tree", "2 trees".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// outputsOf describes the outputs of m for an error: "1 output",
// "3 classes (num_class 3)", "2 targets (num_target 2)".
func outputsOf(m *ir.Model, obj objective) string {
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
	return what
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
