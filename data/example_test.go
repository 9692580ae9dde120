package data_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/treegen/treegen/data"
)

func ExampleRead() {
	const file = "age\tincome\ttarget\n" +
		"31\t52000\t1\n" +
		"NA\t48000\t0\n" +
		"45\tabc\t1\n"

	// The third data row is bad; read the first two.
	in := strings.Join(strings.SplitAfter(file, "\n")[:3], "")
	d, err := data.Read(strings.NewReader(in), "people.tsv", data.Options{RequireTarget: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Rows, "rows of", d.Features)
	for i := range d.Rows {
		fmt.Println(d.Row(i), "->", d.Y[i])
	}

	_, err = data.Read(strings.NewReader(file), "people.tsv", data.Options{})
	fmt.Println(err)
	// Output:
	// 2 rows of [age income]
	// [31 52000] -> 1
	// [NaN 48000] -> 0
	// people.tsv:4:2: cell "abc" in column "income" is not a number
}

func ExampleStratifiedFolds() {
	class := []int{0, 0, 0, 0, 1, 1, 1, 1, 1, 1}
	fold := data.StratifiedFolds(class, 2, 1)
	for f := range 2 {
		var rows []int
		for r, g := range fold {
			if g == f {
				rows = append(rows, r)
			}
		}
		fmt.Println("fold", f, "validates rows", rows)
	}
	// Output:
	// fold 0 validates rows [0 1 5 7 8]
	// fold 1 validates rows [2 3 4 6 9]
}

func ExampleDataset_Relabel() {
	const train = "radius,diagnosis\n" +
		"17.9,M\n" +
		"13.5,B\n" +
		"20.5,M\n"
	const test = "radius,diagnosis\n" +
		"19.8,M\n" +
		"21.0,M\n"
	opts := data.Options{Target: "diagnosis"}
	tr, err := data.Read(strings.NewReader(train), "train.csv", opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	// The labels are sorted, whatever the order of the rows.
	fmt.Println(tr.Labels, tr.Y, tr.LabelName(tr.Y[0]))

	// The test file has a single class, so on its own M is class 0; map it
	// onto the training set's classes.
	te, err := data.Read(strings.NewReader(test), "test.csv", opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(te.Labels, te.Y)
	if err := te.Relabel(tr.Labels); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(te.Labels, te.Y, te.LabelName(te.Y[0]))

	err = te.Relabel([]string{"benign", "malignant"})
	fmt.Println(err)
	// Output:
	// [B M] [1 0 1] M
	// [M] [0 0]
	// [B M] [1 1] M
	// test.csv: row 1 has label "M", which is not one of the 2 known labels: "benign", "malignant"
}

func ExampleStream() {
	const file = "age,income,target\n" +
		"31,52000,yes\n" +
		"NA,48000,no\n" +
		"45,61000,yes\n" +
		"27,abc,no\n"

	// Blocks of at least 32 bytes: the rows come in several blocks.
	s, err := data.OpenStream(strings.NewReader(file), "people.csv", data.Options{ChunkBytes: 32})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer s.Close()
	fmt.Println(s.Features())
	for {
		b, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("line %d: %d rows %v, targets %q\n", b.Line, b.Rows, b.X, b.YText)
	}
	// Output:
	// [age income]
	// line 2: 1 rows [31 52000], targets ["yes"]
	// line 3: 2 rows [NaN 48000 45 61000], targets ["no" "yes"]
	// people.csv:5:2: cell "abc" in column "income" is not a number
}

func ExampleDataset_IsCompact() {
	const file = "height,weight,target\n1.72,68.5,0\n1.65,NA,1\n"
	d, err := data.Read(strings.NewReader(file), "people.csv", data.Options{Compact: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.IsCompact(), len(d.XC), d.Row(0), d.At(1, 1))
	// Output: true 4 [1.72 68.5] NaN
}
