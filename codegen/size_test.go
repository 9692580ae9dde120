package codegen_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/treegen/treegen/codegen"
	"github.com/treegen/treegen/ir"
)

// TestByteSize checks the sizes of a summary, in decimal units.
func TestByteSize(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{0, "0 B"},
		{999, "999 B"},
		{1000, "1.0 kB"},
		{5262, "5.3 kB"},
		{9949, "9.9 kB"},
		{9950, "10 kB"},
		{71774, "72 kB"},
		{999_499, "999 kB"},
		{999_500, "1.0 MB"},
		{3_400_000, "3.4 MB"},
		{1_300_000_000, "1.3 GB"},
		{1 << 62, "4.6 EB"},
	} {
		if got := codegen.ByteSize(tc.n); got != tc.want {
			t.Errorf("ByteSize(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}

func TestSourceSize(t *testing.T) {
	files := []codegen.File{{Name: "a.go", Data: make([]byte, 3)}, {Name: "b.go", Data: make([]byte, 4)}}
	if got := codegen.SourceSize(files); got != 7 {
		t.Errorf("SourceSize = %d, want 7", got)
	}
	if got := codegen.SourceSize(nil); got != 0 {
		t.Errorf("SourceSize(nil) = %d, want 0", got)
	}
}

// TestAdvice checks what a large package is told: backends that hold the
// trees in tables and compile the model, or fewer trees.
func TestAdvice(t *testing.T) {
	soft, err := ir.Load("../golden/soft/model.json")
	if err != nil {
		t.Fatal(err)
	}
	axis, err := ir.Load("../golden/axis100/model.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		m       *ir.Model
		backend string
		size    int
		want    string // "" for no advice
	}{
		{"small", axis, "ifelse", codegen.LargePackage - 1, ""},
		{"ifelse", axis, "ifelse", codegen.LargePackage,
			"the code of ifelse for every node of every tree; --backend walk or --backend quickscorer also compiles this model, holding the trees in tables, which usually builds faster into a smaller binary (treegen bench --backends ifelse,walk,quickscorer compares their speed, build time and source size)"},
		{"walk", axis, "walk", 3_400_000, "the tables of walk; fewer trees make it smaller (--iterations N keeps the first N rounds of a boosted model)"},
		{"quickscorer", axis, "quickscorer", 12_345_678, "the tables of quickscorer; fewer trees make it smaller"},
		{"soft", soft, "smoothstep", 2_000_000,
			"the code of smoothstep for every node of every tree, and no backend that holds trees in tables compiles this model; fewer trees"},
	} {
		p, err := codegen.Plan(tc.m, codegen.Options{Package: "p", Backend: tc.backend})
		if err != nil {
			t.Fatal(err)
		}
		got := p.Advice(tc.size)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%s: advice for a small package: %s", tc.name, got)
		case !strings.HasPrefix(got, tc.want):
			t.Errorf("%s: advice\n%s\nwant it to begin\n%s", tc.name, got, tc.want)
		}
	}
}

func ExampleByteSize() {
	fmt.Println(codegen.ByteSize(812), codegen.ByteSize(5262), codegen.ByteSize(14_200_000))
	// Output: 812 B 5.3 kB 14 MB
}

func ExamplePackagePlan_Advice() {
	p, err := codegen.Plan(stump, codegen.Options{Package: "stump", Backend: "walk"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", p.Advice(800))
	fmt.Println(p.Advice(3_000_000))
	// Output:
	// ""
	// the tables of walk; fewer trees make it smaller (--iterations N keeps the first N rounds of a boosted model)
}

func ExampleCheckDir() {
	// A directory that does not exist holds no other package.
	fmt.Println(codegen.CheckDir("no/such/dir", "iris"))
	// Output: <nil>
}
