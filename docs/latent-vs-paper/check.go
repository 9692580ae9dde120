package main

import (
	"context"
	"fmt"
	"math"
	"os"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/internal/tooling/gencheck"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/runtime"
	"github.com/treegen/treegen/train/latent"
)

// checks collects the models whose generated code is checked at the end.
type checks struct {
	items []gencheck.Item
	rows  int
}

// inputRows returns the rows of d as the model of t reads them: its input
// columns, in order.
func inputRows(t *latent.Tree, d *data.Dataset) [][]float64 {
	names := t.Inputs()
	cols := make([]int, len(names))
	for i, name := range names {
		cols[i] = i
		for j, f := range d.Features {
			if f == name {
				cols[i] = j
			}
		}
	}
	rows := make([][]float64, d.Rows)
	for r := range rows {
		row := d.Row(r)
		rows[r] = make([]float64, len(cols))
		for i, j := range cols {
			rows[r][i] = row[j]
		}
	}
	return rows
}

// add checks that the interpreter computes the trainer's margins on every
// row of d to 1e-12 (relative to the margin's size), and queues m for the
// check of its generated code on those rows.
func (c *checks) add(name string, t *latent.Tree, m *ir.Model, d *data.Dataset) error {
	p, err := runtime.New[float64](m)
	if err != nil {
		return err
	}
	rows := inputRows(t, d)
	want, got := make([]float64, m.NumOutputs), make([]float64, m.NumOutputs)
	for r, x := range rows {
		if err := t.PredictMargin(x, want); err != nil {
			return err
		}
		if err := p.PredictMargin(x, got); err != nil {
			return err
		}
		for o := range want {
			if math.Abs(got[o]-want[o]) > 1e-12*max(1, math.Abs(want[o])) {
				return fmt.Errorf("%s: row %d output %d: the interpreter gives %v, the trainer %v", name, r, o, got[o], want[o])
			}
		}
	}
	c.items = append(c.items, gencheck.Item{Name: name, Model: m, Rows: rows})
	c.rows += len(rows)
	return nil
}

// run compiles every queued model with the ifelse backend and checks it
// against the interpreter, bit for bit, on its rows.
func (c *checks) run() error {
	if len(c.items) == 0 {
		return nil
	}
	fmt.Fprintf(os.Stderr, "checking the generated code of %d models...\n", len(c.items))
	_, err := gencheck.Run(context.Background(), c.items, gencheck.Options{Log: func(line string) { fmt.Fprintln(os.Stderr, line) }})
	return err
}

// summary is the line the reports end with.
func (c *checks) summary() string {
	if len(c.items) == 0 {
		return "The generated code was not checked (-check=false)."
	}
	return fmt.Sprintf("The interpreter equals the trainer to 1e-12, and the ifelse backend's generated code equals the interpreter bit for bit, on all %d test rows of the %d models.", c.rows, len(c.items))
}
