package main

// The data formats that the command reads beyond those of package data,
// which registers them when imported.
import (
	_ "github.com/treegen/treegen/data/parquet" // Parquet files
)
