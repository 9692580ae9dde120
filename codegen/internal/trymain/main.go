package main

import (
	"fmt"
	"os"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
)

func main() {
	m, err := ir.Load(os.Args[1])
	if err != nil { panic(err) }
	prec := codegen.Float64
	if len(os.Args) > 2 { prec = codegen.Precision(os.Args[2]) }
	files, err := codegen.Generate(m, codegen.Options{Package: "stump", Source: "stump.json", Precision: prec})
	if err != nil { fmt.Println(err); os.Exit(1) }
	for _, f := range files { fmt.Printf("==== %s\n%s", f.Name, f.Data) }
}
