package describe

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/ir/importance"
)

// sticky is a writer that keeps the first error of writing and then
// writes nothing more.
type sticky struct {
	w   io.Writer
	err error
}

func (s *sticky) Write(p []byte) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	n, err := s.w.Write(p)
	s.err = err
	return n, err
}

// Importance writes the importance table of r: the top features (all
// when top is 0) by total gain when the model has split statistics, else
// by split count, with a line on the splits left out. It returns the
// first error of writing.
func Importance(out io.Writer, r *importance.Report, top int) error {
	w := &sticky{w: out}
	const key = "importance"
	if len(r.Features) == 0 {
		fmt.Fprintf(w, "%-12s no split tests a single feature\n", key)
		return w.err
	}
	shown := r.Features
	if top > 0 && len(shown) > top {
		shown = shown[:top]
	}
	what := fmt.Sprintf("%d features", len(r.Features))
	switch {
	case len(shown) < len(r.Features):
		what = fmt.Sprintf("top %d of %d features", len(shown), len(r.Features))
	case len(r.Features) == 1:
		what = "1 feature"
	}
	if r.Stats {
		fmt.Fprintf(w, "%-12s %s by total gain (XGBoost's get_score: weight = splits, gain and cover = means per split)\n", key, what)
	} else {
		fmt.Fprintf(w, "%-12s %s by split count; gain and cover unknown: the model's splits record no statistics\n", key, what)
	}
	notes := []string{}
	if r.MultiFeature > 0 {
		notes = append(notes, fmt.Sprintf("%d oblique or soft splits are not attributed to a feature", r.MultiFeature))
	}
	if r.WithoutStats > 0 {
		notes = append(notes, fmt.Sprintf("%d split nodes without statistics (guards, copied subtrees) are not counted", r.WithoutStats))
	}
	for _, n := range notes {
		fmt.Fprintf(w, "%-12s %s\n", "", n)
	}
	labels := make([]string, len(shown))
	width := len("feature")
	for i, f := range shown {
		labels[i] = fmt.Sprintf("x[%d]", f.Index)
		if f.Name != "" {
			labels[i] = printable(f.Name)
		}
		width = max(width, len(labels[i]))
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	if r.Stats {
		fmt.Fprintf(w, "  %-*s %8s %12s %12s %12s %12s\n", width, "feature", "weight", "total_gain", "gain", "total_cover", "cover")
		for i, f := range shown {
			fmt.Fprintf(w, "  %-*s %8d %12s %12s %12s %12s\n", width, labels[i], f.Weight, num(f.TotalGain), num(f.Gain), num(f.TotalCover), num(f.Cover))
		}
	} else {
		fmt.Fprintf(w, "  %-*s %8s\n", width, "feature", "weight")
		for i, f := range shown {
			fmt.Fprintf(w, "  %-*s %8d\n", width, labels[i], f.Weight)
		}
	}
	return w.err
}

// SummaryJSON writes the summary of Summary as one indented JSON object,
// with the importance of every feature (importance.Report's JSON).
func SummaryJSON(w io.Writer, m *ir.Model) error {
	hash, err := ir.Hash(m)
	if err != nil {
		return err
	}
	minDepth, maxDepth, leaves := -1, 0, 0
	nodes := map[string]int{}
	for i := range m.Trees {
		t := &m.Trees[i]
		d := t.Depth()
		if minDepth < 0 || d < minDepth {
			minDepth = d
		}
		maxDepth = max(maxDepth, d)
		leaves += t.NumLeaves()
		for j := range t.Nodes {
			nodes[string(t.Nodes[j].Kind)]++
		}
	}
	out := struct {
		Name          string             `json:"name,omitempty"`
		FormatVersion string             `json:"format_version"`
		Task          ir.Task            `json:"task"`
		ClassNames    []string           `json:"class_names,omitempty"`
		NumFeatures   int                `json:"num_features"`
		NumOutputs    int                `json:"num_outputs"`
		Link          ir.Link            `json:"link"`
		Aggregation   ir.Aggregation     `json:"aggregation"`
		Trees         int                `json:"trees"`
		MinDepth      int                `json:"min_depth"`
		MaxDepth      int                `json:"max_depth"`
		Leaves        int                `json:"leaves"`
		Nodes         map[string]int     `json:"nodes"`
		Producer      string             `json:"producer,omitempty"`
		SHA256        string             `json:"sha256"`
		Importance    *importance.Report `json:"importance"`
	}{
		Name: m.Name, FormatVersion: m.FormatVersion, Task: m.Task, ClassNames: m.ClassNames,
		NumFeatures: m.NumFeatures, NumOutputs: m.NumOutputs, Link: m.Link, Aggregation: m.Aggregation,
		Trees: len(m.Trees), MinDepth: max(minDepth, 0), MaxDepth: maxDepth, Leaves: leaves, Nodes: nodes,
		SHA256: hash, Importance: importance.Compute(m),
	}
	if m.Provenance != nil {
		out.Producer = m.Provenance.Producer
	}
	b, err := json.MarshalIndent(out, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// Summary writes a summary of m, one "key value" line each: name,
// format, task and classes, features, outputs, link, aggregation, base
// score, preprocessing, float32 flags, trees with their depths and leaves,
// latent trees, node kinds, producer with its parameters and data, and the
// model's sha256. A string from the model file that does not print (a
// control character, a bidirectional override) is written quoted with Go's
// escapes, so that a model cannot forge a line or move the cursor. It
// returns the first error of writing.
func Summary(out io.Writer, m *ir.Model) error {
	hash, err := ir.Hash(m)
	if err != nil {
		return err
	}
	w := &sticky{w: out}
	row := func(k, format string, args ...any) { fmt.Fprintf(w, "%-12s %s\n", k, fmt.Sprintf(format, args...)) }
	if m.Name != "" {
		row("name", "%s", strconv.Quote(m.Name))
	}
	row("format", "%s", m.FormatVersion)
	task := string(m.Task)
	if m.ClassNames != nil {
		task += fmt.Sprintf(" (%d classes: %s)", len(m.ClassNames), strings.Join(quoteAll(m.ClassNames), ", "))
	}
	row("task", "%s", task)
	row("features", "%d", m.NumFeatures)
	row("outputs", "%d", m.NumOutputs)
	row("link", "%s", m.Link)
	row("aggregation", "%s", m.Aggregation)
	if m.BaseScore != nil {
		row("base score", "%s", formatNumbers(m.BaseScore))
	}
	row("preprocess", "%v", m.Preprocess != nil)
	row("float32 cmp", "%v", m.Float32Compare)
	if m.Float32Sum {
		row("float32 sum", "%v", m.Float32Sum)
	}
	kinds := map[ir.NodeKind]int{}
	minDepth, maxDepth, leaves, latent := -1, 0, 0, 0
	for i := range m.Trees {
		t := &m.Trees[i]
		if t.Latent {
			latent++
		}
		d := t.Depth()
		if minDepth < 0 || d < minDepth {
			minDepth = d
		}
		if d > maxDepth {
			maxDepth = d
		}
		leaves += t.NumLeaves()
		for j := range t.Nodes {
			kinds[t.Nodes[j].Kind]++
		}
	}
	row("trees", "%d (depth %d to %d, %d leaves)", len(m.Trees), max(minDepth, 0), maxDepth, leaves)
	if latent > 0 {
		row("latent", "%d trees, read-out over %d values", latent, m.NumFeatures+m.LatentSize())
		var pruned []string
		for i := range m.Trees {
			for j, n := range m.Trees[i].Nodes {
				if n.Activity != nil && *n.Activity == 0 {
					pruned = append(pruned, fmt.Sprintf("%d/%d", i, j))
				}
			}
		}
		row("pruned", "%d nodes of activity 0 kept as leaves for their siblings' routing %v", len(pruned), pruned)
		if p := m.Provenance; p != nil && p.Params["nodes"] != "" && p.Params["active_nodes"] != "" {
			row("  training", "%s nodes in the complete tree, %s active; the others are left out", p.Params["nodes"], p.Params["active_nodes"])
		}
	}
	var parts []string
	for _, k := range []ir.NodeKind{ir.Axis, ir.Oblique, ir.Soft, ir.Categorical, ir.Leaf, ir.SoftmaxLeaf} {
		if kinds[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, kinds[k]))
		}
	}
	row("nodes", "%s", strings.Join(parts, ", "))
	if p := m.Provenance; p != nil {
		row("producer", "%s", printable(p.Producer))
		for _, kv := range sortedPairs(p.Params) {
			row("  param", "%s", kv)
		}
		for _, kv := range sortedPairs(p.Data) {
			row("  data", "%s", kv)
		}
	}
	row("sha256", "%s", hash)
	return w.err
}

// formatNumbers writes values as "[a b c]", each in the shortest form that
// reads back exactly, with -0 written 0 (they are equal as base scores).
func formatNumbers(v []float64) string {
	parts := make([]string, len(v))
	for i, x := range v {
		parts[i] = strconv.FormatFloat(x+0, 'g', -1, 64)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

func quoteAll(s []string) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = strconv.Quote(v)
	}
	return out
}

func sortedPairs(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = printable(k) + "=" + printable(m[k])
	}
	return out
}

// Dot draws every tree of m as a cluster of a Graphviz digraph: a box
// per split (its test), an ellipse per leaf (its values), edges labelled
// yes and no (and NaN on the default side). Strings from the model are
// escaped (see Summary). It returns the first error of writing.
func Dot(out io.Writer, m *ir.Model) error {
	w := &sticky{w: out}
	fname := func(f int) string {
		if f < len(m.FeatureNames) {
			return m.FeatureNames[f]
		}
		return fmt.Sprintf("x[%d]", f)
	}
	num := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	fmt.Fprintf(w, "digraph %s {\n  node [shape=box, fontname=\"Helvetica\"];\n", dotQuote(m.Name))
	for ti := range m.Trees {
		t := &m.Trees[ti]
		label := fmt.Sprintf("tree %d", ti)
		if t.Output >= 0 {
			label += fmt.Sprintf(" (output %d)", t.Output)
		}
		fmt.Fprintf(w, "  subgraph cluster_%d {\n    label=%s;\n", ti, dotQuote(label))
		for i := range t.Nodes {
			n := &t.Nodes[i]
			var text string
			switch n.Kind {
			case ir.Axis:
				op := "<"
				if n.LessEqual {
					op = "<="
				}
				text = fmt.Sprintf("%s %s %s", fname(n.Feature), op, num(n.Threshold))
			case ir.Oblique, ir.Soft:
				var terms []string
				for j, f := range n.Indices {
					terms = append(terms, num(n.Weights[j])+"·"+fname(f))
				}
				terms = append(terms, num(n.Bias))
				op := "< 0"
				if n.Kind == ir.Soft {
					op = fmt.Sprintf("soft, γ=%s", num(n.Gamma))
				} else if n.LessEqual {
					op = "<= 0"
				}
				text = strings.Join(terms, " + ") + " " + op
			case ir.Leaf:
				vals := make([]string, len(n.Value))
				for j, v := range n.Value {
					vals[j] = num(v)
				}
				text = "[" + strings.Join(vals, ", ") + "]"
			case ir.SoftmaxLeaf:
				text = fmt.Sprintf("softmax over %d classes", len(n.Softmax.Classes))
			}
			if n.Activity != nil {
				text += "\na=" + num(*n.Activity)
			}
			shape := ""
			if !n.IsSplit() {
				shape = ", shape=ellipse"
			}
			if n.Activity != nil && *n.Activity == 0 {
				text = "pruned (a=0)"
				shape += ", style=dashed, color=gray"
			}
			fmt.Fprintf(w, "    t%d_%d [label=%s%s];\n", ti, i, dotQuote(text), shape)
			if n.IsSplit() {
				yes, no := "yes", "no"
				if n.DefaultLeft {
					yes += ", NaN"
				} else {
					no += ", NaN"
				}
				if n.Kind == ir.Soft {
					yes, no = "p", "1-p"
				}
				fmt.Fprintf(w, "    t%d_%d -> t%d_%d [label=%s];\n", ti, i, ti, n.Left, dotQuote(yes))
				fmt.Fprintf(w, "    t%d_%d -> t%d_%d [label=%s];\n", ti, i, ti, n.Right, dotQuote(no))
			}
		}
		fmt.Fprintln(w, "  }")
	}
	fmt.Fprintln(w, "}")
	return w.err
}

// dotQuote quotes a string for dot; newlines become dot line breaks.
//
// Any other character that does not print (a control character such as
// ESC or CR, a bidirectional override) is written as its Go escape, so
// that names from a model file cannot forge the graph or the terminal.
func dotQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '\n':
			b.WriteString(`\n`)
		case unicode.IsPrint(r):
			b.WriteRune(r)
		default:
			q := strconv.QuoteRuneToASCII(r)
			b.WriteString(`\` + q[1:len(q)-1]) // \x1b shows as \x1b
		}
	}
	b.WriteByte('"')
	return b.String()
}

// printable returns s as it is when every character of it prints, and
// quoted with Go's escapes otherwise: a string from a model file (a
// provenance entry) cannot then move the cursor, end a line or forge one.
func printable(s string) string {
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}
