package ir_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/treegen/treegen/ir"
)

// stumpModel returns a valid model of one stump with k outputs (k > 1: a
// multiclass model, one tree per output), task and link.
func stumpModel(task ir.Task, k int, link ir.Link) *ir.Model {
	m := &ir.Model{
		FormatVersion: ir.FormatVersion, Task: task, NumFeatures: 1, NumOutputs: k,
		Aggregation: ir.Sum, Link: link, BaseScore: make([]float64, k),
	}
	for i := 0; i < k; i++ {
		m.Trees = append(m.Trees, ir.Tree{Output: i, Nodes: []ir.Node{
			{Kind: ir.Axis, Feature: 0, Threshold: 2, Left: 1, Right: 2, DefaultLeft: true},
			{Kind: ir.Leaf, Value: []float64{1.5}},
			{Kind: ir.Leaf, Value: []float64{-0.5}},
		}})
	}
	return m
}

func TestSetLink(t *testing.T) {
	for _, tc := range []struct {
		name string
		m    *ir.Model
		link ir.Link
		why  string
		err  string // "" for none
		want map[string]string
	}{
		{"sigmoid to identity", stumpModel(ir.Binary, 1, ir.Sigmoid), ir.Identity, "--link", "",
			map[string]string{"link_in_file": "sigmoid", "link": "identity (--link)"}},
		{"no reason", stumpModel(ir.Regression, 1, ir.Identity), ir.Exp, "", "",
			map[string]string{"link_in_file": "identity", "link": "exp"}},
		{"softmax of one output", stumpModel(ir.Regression, 1, ir.Identity), ir.Softmax, "--link", "softmax", nil},
	} {
		before := tc.m.Link
		err := tc.m.SetLink(tc.link, tc.why)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want one about %s", tc.name, err, tc.err)
		case tc.err != "" && (tc.m.Link != before || tc.m.Provenance != nil):
			t.Errorf("%s: a failed SetLink changed the model: link %s, provenance %+v", tc.name, tc.m.Link, tc.m.Provenance)
		case tc.err == "" && (tc.m.Link != tc.link || !maps.Equal(tc.m.Provenance.Params, tc.want)):
			t.Errorf("%s: link %s, provenance %v; want %s, %v", tc.name, tc.m.Link, tc.m.Provenance.Params, tc.link, tc.want)
		}
	}
}

func TestSetParam(t *testing.T) {
	for _, m := range []*ir.Model{{}, {Provenance: &ir.Provenance{Producer: "x"}}, {Provenance: &ir.Provenance{Params: map[string]string{"a": "1"}}}} {
		m.SetParam("k", "v")
		if m.Provenance.Params["k"] != "v" {
			t.Errorf("SetParam: params %v", m.Provenance.Params)
		}
	}
}

func ExampleModel_SetLink() {
	m := stumpModel(ir.Binary, 1, ir.Sigmoid)
	if err := m.SetLink(ir.Identity, "raw averages"); err != nil {
		fmt.Println(err)
	}
	fmt.Println(m.Link, m.Provenance.Params["link_in_file"], "->", m.Provenance.Params["link"])
	// Output: identity sigmoid -> identity (raw averages)
}
