package parquet_test

import (
	"bytes"
	"fmt"
	"log"

	pq "github.com/parquet-go/parquet-go"
	"github.com/treegen/treegen/data/parquet"
)

func ExampleWriter() {
	var buf bytes.Buffer
	pw, err := parquet.NewWriter(&buf, []parquet.Column{
		{Name: "height", Kind: parquet.Double},
		{Name: "petals", Kind: parquet.Int64},
		{Name: "species", Kind: parquet.String},
	})
	if err != nil {
		log.Fatal(err)
	}
	// Two rows: the numbers of the Double and Int64 columns, row by row,
	// then the text of the String column.
	err = pw.WriteRows(2, []float64{0.25, 5, 1.5, 3}, []string{"rose", "lily"})
	if err == nil {
		err = pw.Close()
	}
	if err != nil {
		log.Fatal(err)
	}

	// Any Parquet reader reads the file; here, the Parquet library itself.
	type flower struct {
		Height  float64 `parquet:"height"`
		Petals  int64   `parquet:"petals"`
		Species string  `parquet:"species"`
	}
	rows, err := pq.Read[flower](bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range rows {
		fmt.Printf("%+v\n", r)
	}
	// Output:
	// {Height:0.25 Petals:5 Species:rose}
	// {Height:1.5 Petals:3 Species:lily}
}
