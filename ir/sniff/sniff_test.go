package sniff

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestFile sniffs the real model files of the repository.
func TestFile(t *testing.T) {
	tests := []struct {
		path string
		want Kind
	}{
		{"../../testdata/xgboost/bcw_binary_d4/model.json", XGBoostJSON},
		{"../../testdata/xgboost/letter_softprob_d6/model.json", XGBoostJSON},
		{"../xgboost/testdata/tiny.json", XGBoostJSON},
		{"../xgboost/testdata/tiny.ubj", XGBoostUBJSON},
		{"../xgboost/testdata/ubj/bcw_binary_d4.ubj", XGBoostUBJSON},
		{"../lightgbm/testdata/binary.txt", LightGBM},
		{"../lightgbm/testdata/multiclass.txt", LightGBM},
		{"../lightgbm/testdata/categorical.txt", LightGBM},
		{"../../golden/cart_binary/model.json", IR},
		{"../../golden/soft/model.json", IR},
		{"../../testdata/xgboost/bcw_binary_d4/inputs.csv", Unknown},
		{"../../testdata/xgboost/README.md", Unknown},
		{"../../testdata/pmlb/optdigits.tsv.gz", Unknown},
		{"../../testdata/xgboost", Unknown}, // a folder, not a YDF model
	}
	for _, tt := range tests {
		t.Run(filepath.Base(filepath.Dir(tt.path))+"/"+filepath.Base(tt.path), func(t *testing.T) {
			got, err := File(tt.path)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("File(%s) = %q (%s), want %q", tt.path, got, got, tt.want)
			}
		})
	}
	if _, err := File("testdata/missing.json"); err == nil {
		t.Error("File of a missing file: no error")
	}
}

// TestBytes covers the kinds and the near misses that no file in the
// repository shows.
func TestBytes(t *testing.T) {
	onnx := append([]byte{0x08, 0x08, 0x12, 0x07}, "skl2onnx:\x0c\x0a\x0aai.onnx.ml\x10\x03"...)
	tests := []struct {
		name string
		head string
		want Kind
	}{
		{"ir", `{"format_version": "1.0", "task": "binary"}`, IR},
		{"ir with a feature named learner", `{"format_version": "1.3", "feature_names": ["learner"]}`, IR},
		{"ir after white space and a BOM", "\ufeff\n  {\"format_version\": \"1.0\"}", IR},
		{"xgboost json", `{"learner": {"attributes": {}}, "version": [1, 7, 4]}`, XGBoostJSON},
		{"xgboost ubjson", "{L\x00\x00\x00\x00\x00\x00\x00\x07learner{", XGBoostUBJSON},
		{"ubjson, not xgboost", "{i\x03abcSi\x01x}", Unknown},
		{"other json", `{"model": 1}`, Unknown},
		{"lightgbm", "tree\nversion=v3\nnum_class=1\n", LightGBM},
		{"lightgbm crlf", "tree\r\nversion=v3\r\n", LightGBM},
		{"not lightgbm", "trees\n", Unknown},
		{"onnx", string(onnx), ONNX},
		{"protobuf, not onnx", "\x08\x08\x12\x03abc", Unknown},
		{"empty", "", Unknown},
		{"csv", "a,b,target\n1,2,3\n", Unknown},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Bytes([]byte(tt.head)); got != tt.want {
				t.Errorf("Bytes(%q) = %q, want %q", tt.head, got, tt.want)
			}
		})
	}
}

// TestYDFFolder recognises a YDF model folder and a TF-DF SavedModel.
func TestYDFFolder(t *testing.T) {
	for _, sub := range []string{"", "assets"} {
		dir := t.TempDir()
		d := filepath.Join(dir, sub)
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"header.pb", "data_spec.pb"} {
			if err := os.WriteFile(filepath.Join(d, f), []byte{0x0a, 0x00}, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := File(dir); err != nil || got != YDF {
			t.Errorf("File of a folder with %s/header.pb = %q, %v; want %q", sub, got, err, YDF)
		}
	}
}

// TestImporter checks the importer named for each kind.
func TestImporter(t *testing.T) {
	tests := []struct {
		k    Kind
		want string
	}{
		{IR, ""}, {XGBoostJSON, "xgboost"}, {XGBoostUBJSON, "xgboost"}, {LightGBM, "lightgbm"},
		{ONNX, "onnx"}, {YDF, "ydf"}, {Unknown, ""},
	}
	for _, tt := range tests {
		if got := tt.k.Importer(); got != tt.want {
			t.Errorf("%q.Importer() = %q, want %q", tt.k, got, tt.want)
		}
	}
}

func ExampleFile() {
	for _, path := range []string{"../lightgbm/testdata/binary.txt", "../xgboost/testdata/tiny.ubj"} {
		k, err := File(path)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s is %s: treegen import %s\n", filepath.Base(path), k, k.Importer())
	}
	// Output:
	// binary.txt is a LightGBM model: treegen import lightgbm
	// tiny.ubj is an XGBoost model: treegen import xgboost
}
