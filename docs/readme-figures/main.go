// Command readme-figures draws the two pictures of the README: a small real
// model, and the speed of generated code beside the interpreter and
// XGBoost's own predictor.
//
// Run it from the repository root:
//
//	go run ./docs/readme-figures
//
// docs/tree.png is a CART tree of depth 3 that train/cart grows on the
// Cleveland heart disease data (testdata/pmlb/heart_c.tsv.gz): each split
// with its test, each leaf with the probability of heart disease it
// predicts, and every node with the number of training rows that reach it.
//
// docs/speed.png is the time per row of PredictBatch on the five XGBoost
// model shapes of docs/PERFORMANCE.md, in float32: XGBoost's C++ batch
// predictor (docs/anchors.csv), treegen's interpreter and generated code,
// portable and built with GOEXPERIMENT=simd (docs/vector-speed.csv, which
// go run ./docs/vector-speed measures). The program reads the figures from
// those files and measures nothing itself.
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"image/color"
	"log"
	"math"
	"os"
	"path/filepath"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"

	"github.com/treegen/treegen/data"
	"github.com/treegen/treegen/ir"
	"github.com/treegen/treegen/train/cart"
)

func main() {
	dir := flag.String("docs", "docs", "folder of the figures' data and of the PNG files written")
	pmlb := flag.String("pmlb", "testdata/pmlb", "folder of the PMLB data sets")
	flag.Parse()
	if err := drawTree(filepath.Join(*dir, "tree.png"), filepath.Join(*pmlb, "heart_c.tsv.gz")); err != nil {
		log.Fatal(err)
	}
	if err := drawSpeed(filepath.Join(*dir, "speed.png"), filepath.Join(*dir, "anchors.csv"), filepath.Join(*dir, "vector-speed.csv")); err != nil {
		log.Fatal(err)
	}
}

// dpi is the resolution of both pictures: twice a screen's, so that they
// stay sharp when the README's column scales them down.
const dpi = 192

// The colours of both pictures.
var (
	ink      = color.Gray{Y: 0x33}
	faint    = color.Gray{Y: 0x77}
	splitBox = color.RGBA{R: 0xee, G: 0xf1, B: 0xf5, A: 0xff}
	healthy  = color.RGBA{R: 0x3b, G: 0x7d, B: 0xd8, A: 0xff}
	disease  = color.RGBA{R: 0xd9, G: 0x4a, B: 0x3a, A: 0xff}
)

// sans returns the text style of the pictures at size points, centred on
// the point it is drawn at.
func sans(size vg.Length, c color.Color) draw.TextStyle {
	return draw.TextStyle{
		Color:   c,
		Font:    font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, size),
		XAlign:  draw.XCenter,
		YAlign:  draw.YCenter,
		Handler: plot.DefaultTextHandler,
	}
}

// drawTree trains the tree and draws it into path.
func drawTree(path, dataPath string) error {
	d, err := data.ReadFile(dataPath, data.Options{RequireTarget: true})
	if err != nil {
		return err
	}
	m, err := cart.Train(d, cart.Options{Criterion: cart.Gini, MaxDepth: 3, Name: "heart"})
	if err != nil {
		return err
	}
	if m.Task != ir.Binary || len(m.Trees) != 1 {
		return fmt.Errorf("%s: CART made a %s model of %d trees, want one binary tree", dataPath, m.Task, len(m.Trees))
	}
	nodes := m.Trees[0].Nodes
	rows := make([]int, len(nodes)) // training rows that reach each node
	for r := range d.Rows {
		x := d.Row(r)
		for i := 0; ; {
			rows[i]++
			n := nodes[i]
			if n.Kind == ir.Leaf {
				break
			}
			if n.Kind != ir.Axis {
				return fmt.Errorf("%s: node %d is %s, want axis-aligned splits", dataPath, i, n.Kind)
			}
			v := x[n.Feature]
			if math.IsNaN(v) && n.DefaultLeft || v < n.Threshold || n.LessEqual && v == n.Threshold {
				i = n.Left
			} else {
				i = n.Right
			}
		}
	}

	// Leaves take equal slots from left to right; a split sits above the
	// middle of its children; levels are equally spaced.
	type place struct{ x, y float64 } // x in slots, y in levels
	at := make([]place, len(nodes))
	slot, depth := 0.0, 0
	var layout func(i, level int)
	layout = func(i, level int) {
		depth = max(depth, level)
		n := nodes[i]
		if n.Kind == ir.Leaf {
			at[i] = place{slot + 0.5, float64(level)}
			slot++
			return
		}
		layout(n.Left, level+1)
		layout(n.Right, level+1)
		at[i] = place{(at[n.Left].x + at[n.Right].x) / 2, float64(level)}
	}
	layout(0, 0)

	const (
		slotW   = 1.2 * vg.Inch
		levelH  = 0.9 * vg.Inch
		boxW    = 1.08 * vg.Inch
		boxH    = 0.5 * vg.Inch
		margin  = 0.12 * vg.Inch
		titleH  = 0.4 * vg.Inch
		legendH = 0.35 * vg.Inch
	)
	w := vg.Length(slot)*slotW + 2*margin
	h := titleH + vg.Length(depth)*levelH + boxH + legendH + 2*margin
	img := vgimg.NewWith(vgimg.UseWH(w, h), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	c := draw.New(img)
	centre := func(i int) vg.Point {
		return vg.Point{X: margin + vg.Length(at[i].x)*slotW, Y: h - margin - titleH - boxH/2 - vg.Length(at[i].y)*levelH}
	}

	c.FillText(sans(12, ink), vg.Point{X: w / 2, Y: h - margin - titleH/2 + 2},
		fmt.Sprintf("CART of depth 3 on the Cleveland heart disease data (%d rows)", d.Rows))

	edge := draw.LineStyle{Color: faint, Width: vg.Points(1)}
	for i, n := range nodes {
		if n.Kind == ir.Leaf {
			continue
		}
		from := centre(i)
		from.Y -= boxH / 2
		for k, child := range []int{n.Left, n.Right} {
			to := centre(child)
			to.Y += boxH / 2
			c.StrokeLines(edge, []vg.Point{from, to})
			label := "yes"
			if k == 1 {
				label = "no"
			}
			mid := vg.Point{X: (from.X+to.X)/2 + vg.Length(2*k-1)*0.12*vg.Inch, Y: (from.Y+to.Y)/2 + 0.04*vg.Inch}
			c.FillText(sans(8.5, faint), mid, label)
		}
	}
	for i, n := range nodes {
		p := centre(i)
		box := []vg.Point{
			{X: p.X - boxW/2, Y: p.Y - boxH/2}, {X: p.X + boxW/2, Y: p.Y - boxH/2},
			{X: p.X + boxW/2, Y: p.Y + boxH/2}, {X: p.X - boxW/2, Y: p.Y + boxH/2},
		}
		count := fmt.Sprintf("%d rows", rows[i])
		if n.Kind == ir.Leaf {
			prob := n.Value[0]
			c.FillPolygon(blend(healthy, disease, prob), box)
			c.FillText(sans(12, color.White), vg.Point{X: p.X, Y: p.Y + boxH/7}, fmt.Sprintf("%.2f", prob))
			c.FillText(sans(8, color.White), vg.Point{X: p.X, Y: p.Y - boxH/4}, count)
			continue
		}
		op := "<"
		if n.LessEqual {
			op = "≤"
		}
		c.FillPolygon(splitBox, box)
		c.StrokeLines(draw.LineStyle{Color: faint, Width: vg.Points(0.6)}, append(box, box[0]))
		test := fmt.Sprintf("%s %s %s", m.FeatureNames[n.Feature], op, strconv.FormatFloat(n.Threshold, 'g', 4, 64))
		c.FillText(sans(10.5, ink), vg.Point{X: p.X, Y: p.Y + boxH/7}, test)
		c.FillText(sans(8, faint), vg.Point{X: p.X, Y: p.Y - boxH/4}, count)
	}
	c.FillText(sans(9, faint), vg.Point{X: w / 2, Y: margin + legendH/2},
		"a row goes left (yes) when the test holds; a leaf gives the probability of heart disease, from blue (0) to red (1)")
	return writePNG(path, img)
}

// blend returns the colour at t in [0, 1] between a and b.
func blend(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x) + t*(float64(y)-float64(x)))) }
	return color.RGBA{R: mix(a.R, b.R), G: mix(a.G, b.G), B: mix(a.B, b.B), A: 0xff}
}

// writePNG writes the picture drawn on img to path.
func writePNG(path string, img *vgimg.Canvas) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %v", path, err)
	}
	return f.Close()
}

// shape is one model of the speed chart, with its figures in ns per row.
type shape struct {
	name, label                           string
	xgboost, interp, portable, simd       float64
	portableBackend, simdBackend, simdISA string
}

// drawSpeed reads the figures and draws the chart into path.
func drawSpeed(path, anchorsPath, vectorPath string) error {
	anchors, err := readCSV(anchorsPath)
	if err != nil {
		return err
	}
	vector, err := readCSV(vectorPath)
	if err != nil {
		return err
	}
	var shapes []*shape
	byName := map[string]*shape{}
	for _, r := range anchors {
		xgb, err := r.float("xgboost_batch_ns")
		if err != nil {
			return err
		}
		s := &shape{name: r.get("model"), label: r.get("label"), xgboost: xgb}
		shapes = append(shapes, s)
		byName[s.name] = s
	}
	for _, r := range vector {
		s := byName[r.get("model")]
		if s == nil {
			continue
		}
		batch, err := r.float("ns_per_row_batch")
		if err != nil {
			return err
		}
		backend, simd := r.get("backend"), r.get("simd") == "true"
		switch {
		case backend == "interp":
			s.interp = batch
		case simd && (s.simd == 0 || batch < s.simd):
			s.simd, s.simdBackend, s.simdISA = batch, backend, r.get("instructions")
		case !simd && (s.portable == 0 || batch < s.portable):
			s.portable, s.portableBackend = batch, backend
		}
	}
	for _, s := range shapes {
		if s.interp == 0 || s.portable == 0 || s.simd == 0 {
			return fmt.Errorf("%s: model %s lacks the interpreter's, the portable or the simd batch figure", vectorPath, s.name)
		}
	}

	p := plot.New()
	p.Title.Text = "PredictBatch, float32, one thread: how many times as fast as XGBoost's C++ batch predictor"
	p.Title.TextStyle.Font = font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, 11)
	p.Y.Label.Text = "speed relative to XGBoost 1.7 (higher is faster)"
	p.Y.Min = 0
	p.Legend.Top = true
	p.Legend.Left = true
	series := []struct {
		name  string
		color color.Color
		ns    func(*shape) float64
	}{
		{"XGBoost 1.7 C++ batch predictor", color.Gray{Y: 0x99}, func(s *shape) float64 { return s.xgboost }},
		{"treegen interpreter", color.RGBA{R: 0x8c, G: 0xb4, B: 0xe8, A: 0xff}, func(s *shape) float64 { return s.interp }},
		{"generated Go, portable", color.RGBA{R: 0x3b, G: 0x7d, B: 0xd8, A: 0xff}, func(s *shape) float64 { return s.portable }},
		{"generated Go, GOEXPERIMENT=simd (" + shapes[0].simdISA + ")", color.RGBA{R: 0x1b, G: 0x3f, B: 0x8a, A: 0xff}, func(s *shape) float64 { return s.simd }},
	}
	const barW = 0.2 * vg.Inch
	for k, se := range series {
		vals := make(plotter.Values, len(shapes))
		labels := make([]string, len(shapes))
		xys := make(plotter.XYs, len(shapes))
		for i, s := range shapes {
			ns := se.ns(s)
			vals[i] = s.xgboost / ns
			labels[i] = micro(ns)
			xys[i] = plotter.XY{X: float64(i), Y: vals[i]}
		}
		bars, err := plotter.NewBarChart(vals, barW)
		if err != nil {
			return err
		}
		bars.Color = se.color
		bars.LineStyle.Width = 0
		bars.Offset = vg.Length(float64(k)-1.5) * barW
		p.Add(bars)
		p.Legend.Add(se.name, bars)
		tags, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
		if err != nil {
			return err
		}
		for i := range tags.TextStyle {
			tags.TextStyle[i] = sans(6.5, ink)
			tags.TextStyle[i].YAlign = draw.YBottom
			tags.TextStyle[i].Rotation = math.Pi / 2
			tags.TextStyle[i].XAlign = draw.XLeft
			tags.TextStyle[i].YAlign = draw.YCenter
		}
		tags.Offset = vg.Point{X: bars.Offset, Y: 0.03 * vg.Inch}
		p.Add(tags)
	}
	names := make([]string, len(shapes))
	for i, s := range shapes {
		names[i] = s.label
	}
	p.NominalX(names...)
	// Room on both sides for the outer bars and the longest names.
	p.X.Min, p.X.Max = -0.75, float64(len(shapes))-0.25
	p.Legend.XOffs = 0.15 * vg.Inch
	top := 0.0
	for _, s := range shapes {
		top = max(top, s.xgboost/s.simd)
	}
	p.Y.Max = math.Ceil(top*1.25 + 0.5)
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil
	p.Add(grid)
	var ticks []plot.Tick
	for v := 0.0; v <= p.Y.Max; v++ {
		ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64) + "×"})
	}
	p.Y.Tick.Marker = plot.ConstantTicks(ticks)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, 10)
		a.Tick.Label.Font = font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, 9)
	}
	p.X.Label.Text = "XGBoost models imported with treegen import xgboost (the labels on the bars: time per row)"
	p.Legend.TextStyle.Font = font.From(font.Font{Typeface: "Liberation", Variant: "Sans"}, 9)
	img := vgimg.NewWith(vgimg.UseWH(8.5*vg.Inch, 4.2*vg.Inch), vgimg.UseDPI(dpi), vgimg.UseBackgroundColor(color.White))
	p.Draw(draw.New(img))
	return writePNG(path, img)
}

// micro formats ns as µs with two significant decimals at most.
func micro(ns float64) string {
	us := ns / 1000
	switch {
	case us < 1:
		return strconv.FormatFloat(us, 'f', 2, 64) + " µs"
	case us < 10:
		return strconv.FormatFloat(us, 'f', 1, 64) + " µs"
	}
	return strconv.FormatFloat(us, 'f', 0, 64) + " µs"
}

// record is a line of a CSV file, its cells by column name.
type record struct {
	path string
	line int
	cell map[string]string
}

func (r record) get(col string) string { return r.cell[col] }

// float returns the number in column col, or an error naming the file,
// line and column.
func (r record) float(col string) (float64, error) {
	v, err := strconv.ParseFloat(r.cell[col], 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s:%d: column %s: %q is not a positive number", r.path, r.line, col, r.cell[col])
	}
	return v, nil
}

// readCSV reads a CSV file with a header line.
func readCSV(path string) ([]record, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lines, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(lines) < 2 {
		return nil, errors.New(path + ": no data lines")
	}
	var out []record
	for i, l := range lines[1:] {
		r := record{path: path, line: i + 2, cell: map[string]string{}}
		for j, name := range lines[0] {
			r.cell[name] = l[j]
		}
		out = append(out, r)
	}
	return out, nil
}
