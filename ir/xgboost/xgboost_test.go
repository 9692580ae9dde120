package xgboost

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
)

// TestBaseMargins checks the base margin of binary:logistic (log-odds) and
// count:poisson (log) against XGBoost's, bit for bit, on the values of
// base_score in testdata/base_margins.csv, among them values where glibc's
// logf, which XGBoost uses, is not correctly rounded.
func TestBaseMargins(t *testing.T) {
	data, err := os.ReadFile("testdata/base_margins.csv")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")[1:]
	odd := 0
	for _, line := range lines {
		f := strings.Split(line, ",")
		bs64, err1 := strconv.ParseFloat(f[1], 32)
		want64, err2 := strconv.ParseFloat(f[2], 32)
		if len(f) != 3 || err1 != nil || err2 != nil {
			t.Fatalf("bad line %q", line)
		}
		bs, want := float32(bs64), float32(want64)
		obj, err := lookupObjective(f[0])
		if err != nil {
			t.Fatal(err)
		}
		got, err := obj.toMargin(f[0], bs)
		if err != nil {
			t.Fatal(err)
		}
		if math.Float32bits(got) != math.Float32bits(want) {
			t.Errorf("%s: base_score %s: base margin %v, XGBoost %v", f[0], f[1], got, want)
		}
		arg := float64(bs)
		if obj.margin == marginLogit {
			arg = float64(float32(1)/bs - float32(1))
		}
		if float32(math.Log(arg)) != logf(float32(arg)) {
			odd++
		}
	}
	if len(lines) < 1000 || odd < 10 {
		t.Errorf("%d values, %d where logf is not correctly rounded: too few to test anything", len(lines), odd)
	}
}

func TestLogfSpecialValues(t *testing.T) {
	for _, c := range []struct{ x, want float32 }{
		{1, 0}, {0, float32(math.Inf(-1))}, {float32(math.Inf(1)), float32(math.Inf(1))},
		{2, float32(math.Ln2)}, {math.SmallestNonzeroFloat32, -103.278931}, {math.MaxFloat32, 88.7228394}, // glibc logf
		{1e-40, -92.1034088},
	} {
		if got := logf(c.x); got != c.want {
			t.Errorf("logf(%v) = %v, want %v", c.x, got, c.want)
		}
	}
}

// TestSchemaVariants checks that the spellings of XGBoost 2 and 3
// (default_left as booleans, base_score as a bracketed vector) import as the
// XGBoost 1.7 model they were derived from.
func TestSchemaVariants(t *testing.T) {
	for _, name := range []string{"v2_bools.json", "v3_vector.json", "v3_both.json"} {
		t.Run(name, func(t *testing.T) {
			want := mustLoad(t, "testdata/models/bcw_logistic/model.json")
			got := mustLoad(t, filepath.Join("testdata/schema", name))
			if v := got.Provenance.Params["version"]; name == "v3_both.json" && v != "3.0.0" {
				t.Errorf("version %q, want 3.0.0", v)
			}
			delete(got.Provenance.Params, "version")
			delete(want.Provenance.Params, "version")
			if got.Provenance.Params["base_score"] == "[3E-1]" {
				got.Provenance.Params["base_score"] = "3E-1"
			}
			sameModel(t, got, want)
		})
	}
}

// TestFixturesUBJSON checks XGBoost's UBJSON of some shared fixtures against
// their JSON (same IR, byte for byte) and against XGBoost's outputs.
func TestFixturesUBJSON(t *testing.T) {
	files, err := filepath.Glob("testdata/ubj/*.ubj")
	if err != nil || len(files) < 3 {
		t.Fatalf("want at least 3 UBJSON fixtures in testdata/ubj, got %d (%v)", len(files), err)
	}
	for _, ubj := range files {
		name := strings.TrimSuffix(filepath.Base(ubj), ".ubj")
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(fixtures, name)
			sameIR(t, filepath.Join(dir, "model.json"), ubj)
			c := loadCase(t, dir, ubj)
			checkInterpreter(t, c)
		})
	}
}

// TestTiny checks the handwritten tiny model and XGBoost's UBJSON of it.
func TestTiny(t *testing.T) {
	m := mustLoad(t, "testdata/tiny.json")
	sameIR(t, "testdata/tiny.json", "testdata/tiny.ubj")
	if got := strings.Join(m.FeatureNames, ","); got != "age,income" {
		t.Errorf("feature names %q", got)
	}
	if m.Task != ir.Binary || m.Link != ir.Sigmoid || strings.Join(m.ClassNames, ",") != "0,1" || !m.Float32Compare {
		t.Errorf("task %s, link %s, classes %q, float32 %v", m.Task, m.Link, m.ClassNames, m.Float32Compare)
	}
	// The second tree in the IR's pre-order: 0 split, 1 leaf, 2 split, 3 and 4 leaves.
	tr := m.Trees[1].Nodes
	if tr[0].Kind != ir.Axis || tr[0].Feature != 1 || tr[0].Threshold != 5e4 || tr[0].DefaultLeft || tr[0].Left != 1 || tr[0].Right != 2 ||
		tr[2].Kind != ir.Axis || !tr[2].DefaultLeft || tr[2].Left != 3 || tr[2].Right != 4 || tr[3].Value[0] != float64(float32(0.2)) {
		t.Errorf("tree 1: %+v", tr)
	}
	want := map[string]string{"objective": "binary:logistic", "booster": "gbtree", "version": "1.7.4", "base_score": "5E-1", "num_parallel_tree": "1", "num_trees": "2"}
	if m.Provenance.Producer != "xgboost" || len(m.Provenance.Params) != len(want) {
		t.Errorf("provenance %+v", m.Provenance)
	}
	for k, v := range want {
		if m.Provenance.Params[k] != v {
			t.Errorf("provenance %s = %q, want %q", k, m.Provenance.Params[k], v)
		}
	}
}

// TestObjectives checks the mapping of every objective: task, link, classes
// and base margin (for base_score 0.5).
func TestObjectives(t *testing.T) {
	half := float32(0.5)
	cases := []struct {
		objective string
		task      ir.Task
		link      ir.Link
		classes   string
		base      float32
	}{
		{"binary:logistic", ir.Binary, ir.Sigmoid, "0,1", float32(math.Copysign(0, -1))},
		{"binary:logitraw", ir.Binary, ir.Identity, "0,1", half},
		{"reg:logistic", ir.Regression, ir.Sigmoid, "", float32(math.Copysign(0, -1))},
		{"reg:squarederror", ir.Regression, ir.Identity, "", half},
		{"reg:linear", ir.Regression, ir.Identity, "", half},
		{"reg:squaredlogerror", ir.Regression, ir.Identity, "", half},
		{"reg:pseudohubererror", ir.Regression, ir.Identity, "", half},
		{"reg:absoluteerror", ir.Regression, ir.Identity, "", half},
		{"reg:quantileerror", ir.Regression, ir.Identity, "", half},
		{"count:poisson", ir.Regression, ir.Exp, "", -0.6931472},
		{"reg:gamma", ir.Regression, ir.Exp, "", -0.6931472},
		{"reg:tweedie", ir.Regression, ir.Exp, "", -0.6931472},
		{"survival:cox", ir.Regression, ir.Exp, "", -0.6931472},
		{"survival:aft", ir.Regression, ir.Exp, "", -0.6931472},
		{"rank:pairwise", ir.Regression, ir.Identity, "", half},
		{"rank:ndcg", ir.Regression, ir.Identity, "", half},
		{"rank:map", ir.Regression, ir.Identity, "", half},
		{"multi:softmax", ir.Multiclass, ir.Softmax, "0,1,2", half},
		{"multi:softprob", ir.Multiclass, ir.Softmax, "0,1,2", half},
	}
	if len(cases) != len(objectives) {
		t.Errorf("%d cases for %d objectives", len(cases), len(objectives))
	}
	for _, c := range cases {
		doc := tinyDoc(t)
		learner := doc["learner"].(map[string]any)
		learner["objective"] = map[string]any{"name": c.objective}
		if c.task == ir.Multiclass {
			learner["learner_model_param"].(map[string]any)["num_class"] = "3"
			learner["gradient_booster"].(map[string]any)["model"].(map[string]any)["tree_info"] = []any{0, 2}
		}
		m, err := Decode(encode(t, doc), "tiny.json")
		if err != nil {
			t.Errorf("%s: %v", c.objective, err)
			continue
		}
		if m.Task != c.task || m.Link != c.link || strings.Join(m.ClassNames, ",") != c.classes {
			t.Errorf("%s: task %s, link %s, classes %q; want %s, %s, %q", c.objective, m.Task, m.Link, m.ClassNames, c.task, c.link, c.classes)
		}
		for k, b := range m.BaseScore {
			if math.Float64bits(b) != math.Float64bits(float64(c.base)) {
				t.Errorf("%s: base margin[%d] %v, want %v", c.objective, k, b, c.base)
			}
		}
	}
}

// TestMultiTarget checks a model with two targets (XGBoost 2's
// one_output_per_tree with num_target 2) and a base_score vector.
func TestMultiTarget(t *testing.T) {
	doc := tinyDoc(t)
	learner := doc["learner"].(map[string]any)
	learner["objective"] = map[string]any{"name": "reg:squarederror"}
	mp := learner["learner_model_param"].(map[string]any)
	mp["num_target"] = "2"
	mp["base_score"] = "[1E0,2.5E0]"
	learner["gradient_booster"].(map[string]any)["model"].(map[string]any)["tree_info"] = []any{1, 0}
	m, err := Decode(encode(t, doc), "tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	if m.Task != ir.MultiOutput || m.NumOutputs != 2 || m.BaseScore[0] != 1 || m.BaseScore[1] != 2.5 || m.Trees[0].Output != 1 || m.Trees[1].Output != 0 {
		t.Errorf("task %s, %d outputs, base %v, outputs %d %d", m.Task, m.NumOutputs, m.BaseScore, m.Trees[0].Output, m.Trees[1].Output)
	}
}

// TestCategoricalGuard checks the conversion of a categorical split whose
// set holds category 0 (preceded by the guard v < 0) against XGBoost 1.7's
// rule: the listed categories go right; negative values (-0.5 included) and
// values >= 2^24 go left; NaN follows default_left.
func TestCategoricalGuard(t *testing.T) {
	for _, defaultLeft := range []int{0, 1} {
		doc := tinyDoc(t)
		tree := doc["learner"].(map[string]any)["gradient_booster"].(map[string]any)["model"].(map[string]any)["trees"].([]any)[0].(map[string]any)
		tree["split_type"] = []any{1, 0, 0}
		tree["default_left"] = []any{defaultLeft, 0, 0}
		tree["categories"] = []any{3, 0, 16777216, 2, 3}
		tree["categories_nodes"] = []any{0}
		tree["categories_segments"] = []any{0}
		tree["categories_sizes"] = []any{5}
		m, err := Decode(encode(t, doc), "cat.json")
		if err != nil {
			t.Fatal(err)
		}
		// The guard, a copy of XGBoost's left leaf, the categorical split
		// with the children swapped.
		nodes := m.Trees[0].Nodes
		if len(nodes) != 5 || nodes[0].Kind != ir.Axis || nodes[0].Left != 1 || nodes[0].Right != 2 ||
			nodes[2].Kind != ir.Categorical || fmt.Sprint(nodes[2].Categories) != "[0 2 3]" || nodes[2].DefaultLeft != (defaultLeft == 0) {
			t.Fatalf("default_left %d: tree 0: %+v", defaultLeft, nodes)
		}
		p, err := runtime.New[float32](m)
		if err != nil {
			t.Fatal(err)
		}
		const left, right = -0.4, 0.3 // XGBoost's leaves
		for _, c := range []struct {
			v    float64
			want float64
		}{
			{0, right}, {2, right}, {3.7, right}, {-0.0, right}, {1, left}, {4, left}, {-0.5, left}, {-1e-30, left},
			{-1, left}, {-7, left}, {16777216, left}, {1e10, left}, {math.Inf(1), left}, {math.Inf(-1), left},
			{math.NaN(), [2]float64{right, left}[defaultLeft]},
		} {
			var out, rt [1]float32
			sum32(m, []float64{c.v, 0}, out[:])
			if err := p.PredictMargin([]float32{float32(c.v), 0}, rt[:]); err != nil {
				t.Fatal(err)
			}
			want := float32(m.BaseScore[0]) + float32(c.want) + float32(0.1)
			if out[0] != want || rt[0] != want {
				t.Errorf("default_left %d: value %v: margin %v (interpreter %v), want %v", defaultLeft, c.v, out[0], rt[0], want)
			}
		}
	}
}

// TestDetectFormat checks that the format follows the content: JSON with
// leading whitespace or a byte order mark, UBJSON under a .json name; and
// that a checkpoint's {"Config", "Model"} wrapper is read.
func TestDetectFormat(t *testing.T) {
	text, err := os.ReadFile("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	ubj, err := os.ReadFile("testdata/tiny.ubj")
	if err != nil {
		t.Fatal(err)
	}
	want := mustLoad(t, "testdata/tiny.json")
	for name, data := range map[string][]byte{
		"spaces.json": append([]byte(" \n\t"), text...),
		"bom.json":    append([]byte("\ufeff"), text...),
		"ubjson.json": ubj,
		"json.ubj":    text,
		"encoded.ubj": toUBJSON(t, tinyDoc(t)),
		"checkpoint":  encode(t, map[string]any{"Config": map[string]any{}, "Model": tinyDoc(t)}),
	} {
		got, err := Decode(data, name)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		sameModel(t, got, want)
	}
}

func mustLoad(t *testing.T, path string) *ir.Model {
	t.Helper()
	m, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameModel checks that two models marshal to the same bytes.
func sameModel(t *testing.T, got, want *ir.Model) {
	t.Helper()
	a, err := ir.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ir.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("models differ:\n%s", firstDiff(a, b))
	}
}

// tinyDoc returns testdata/tiny.json as generic JSON values (numbers as
// json.Number).
func tinyDoc(t *testing.T) map[string]any {
	t.Helper()
	data, err := os.ReadFile("testdata/tiny.json")
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func encode(t *testing.T, doc any) []byte {
	t.Helper()
	data, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// toUBJSON encodes generic JSON values as XGBoost writes UBJSON: sorted
// keys with int64 lengths, arrays of numbers as typed containers (int32 or
// float32), other arrays with a count, integers as int64, other numbers as
// float32.
func toUBJSON(t *testing.T, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	writeUBJSON(t, &b, v)
	return b.Bytes()
}

func writeUBJSON(t *testing.T, b *bytes.Buffer, v any) {
	length := func(n int) {
		b.WriteByte('L')
		binary.Write(b, binary.BigEndian, int64(n))
	}
	switch v := v.(type) {
	case nil:
		b.WriteByte('Z')
	case bool:
		if v {
			b.WriteByte('T')
		} else {
			b.WriteByte('F')
		}
	case string:
		b.WriteByte('S')
		length(len(v))
		b.WriteString(v)
	case int:
		b.WriteByte('L')
		binary.Write(b, binary.BigEndian, int64(v))
	case json.Number:
		if n, err := v.Int64(); err == nil {
			b.WriteByte('L')
			binary.Write(b, binary.BigEndian, n)
			return
		}
		f, err := strconv.ParseFloat(string(v), 32)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteByte('d')
		binary.Write(b, binary.BigEndian, float32(f))
	case map[string]any:
		b.WriteByte('{')
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			length(len(k))
			b.WriteString(k)
			writeUBJSON(t, b, v[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		typ := byte('l')
		for _, e := range v {
			switch e := e.(type) {
			case json.Number:
				if _, err := e.Int64(); err != nil {
					typ = 'd'
				}
			case int:
			default:
				typ = 0
			}
			if typ == 0 {
				break
			}
		}
		if len(v) == 0 || typ == 0 {
			b.WriteByte('#')
			length(len(v))
			for _, e := range v {
				writeUBJSON(t, b, e)
			}
			return
		}
		b.WriteString("$" + string(typ) + "#")
		length(len(v))
		for _, e := range v {
			var s string
			switch e := e.(type) {
			case json.Number:
				s = string(e)
			case int:
				s = strconv.Itoa(e)
			}
			f, err := strconv.ParseFloat(s, 64)
			if err != nil {
				t.Fatal(err)
			}
			if typ == 'l' {
				binary.Write(b, binary.BigEndian, int32(f))
			} else {
				binary.Write(b, binary.BigEndian, float32(f))
			}
		}
	default:
		t.Fatalf("cannot encode %T", v)
	}
}
