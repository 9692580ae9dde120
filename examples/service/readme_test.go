package main

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeShowsHandler checks that README.md shows handler.go exactly as
// it is, as one go block, so that the code the README shows is the code
// that compiles and that TestPredict serves.
func TestReadmeShowsHandler(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	handler, err := os.ReadFile("handler.go")
	if err != nil {
		t.Fatal(err)
	}
	if block := "```go\n" + string(handler) + "```\n"; !strings.Contains(string(readme), block) {
		t.Error("README.md does not show examples/service/handler.go as it is: copy the file into the README's go block")
	}
}
