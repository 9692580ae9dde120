module example.com/gogenerate

go 1.25.0

require (
	github.com/dave/jennifer v1.7.1 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/cobra v1.10.2 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	github.com/treegen/treegen v0.0.0 // indirect
	golang.org/x/sys v0.47.0 // indirect
	golang.org/x/tools v0.49.0 // indirect
	gonum.org/v1/gonum v0.16.0 // indirect
)

replace github.com/treegen/treegen => ../..

tool github.com/treegen/treegen/cmd/treegen
