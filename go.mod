module github.com/treegen/treegen

go 1.24

require github.com/dave/jennifer v1.7.1 // indirect
