package data_test

import (
	"fmt"
	"log"
	"strings"

	"github.com/treegen/treegen/data"
)

// A model's features, in its order, read from a file that holds them in
// another order, with a column the model does not know.
func ExampleOptions_select() {
	file := "bmi,zip,target,age\n22.5,75001,1,41\n30.1,69002,0,57\n"
	d, err := data.Read(strings.NewReader(file), "people.csv", data.Options{
		Select: []string{"age", "bmi"},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Features, "skipped:", d.Skipped)
	for r := range d.Rows {
		fmt.Println(d.Row(r), d.Y[r])
	}

	// A column the file lacks is named.
	_, err = data.Read(strings.NewReader(file), "people.csv", data.Options{
		Select: []string{"age", "height"},
	})
	fmt.Println(err)
	// Output:
	// [age bmi] skipped: [zip]
	// [41 22.5] 1
	// [57 30.1] 0
	// people.csv:1: no column "height"; columns are: bmi, zip, target, age
}

func ExampleMatchColumns() {
	names := []string{"bmi", "label", "zip", "age"}
	l, err := data.MatchColumns("people.csv", 1, names, data.Options{Target: "label", Select: []string{"age", "bmi"}})
	if err != nil {
		log.Fatal(err)
	}
	for j, f := range l.Features {
		fmt.Printf("feature %d, %s: column %d\n", j, f, l.Index[j]+1)
	}
	fmt.Printf("target: column %d; skipped: %v\n", l.Target+1, l.Skipped)
	// Output:
	// feature 0, age: column 4
	// feature 1, bmi: column 1
	// target: column 2; skipped: [zip]
}

func ExampleColumns_Fit() {
	cols := data.Columns{Source: "rows.csv", Format: data.FormatCSV, Features: []string{"age", "sex"}}
	fmt.Println(cols.Fit(2, []string{"age", "sex"}, false))
	fmt.Println(cols.Fit(2, []string{"sex", "age"}, false))
	fmt.Println(cols.Fit(2, []string{"sex", "age"}, true))
	fmt.Println(cols.Fit(3, nil, false))
	// Output:
	// <nil>
	// rows.csv: column 1 is "age", the model expects "sex"
	// <nil>
	// rows.csv has 2 feature columns, the model expects 3
}
