package sniff

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Kind is a kind of model file.
type Kind string

// The kinds of model files that Bytes and File recognise.
const (
	Unknown       Kind = ""
	IR            Kind = "ir"             // treegen's IR (JSON with "format_version")
	XGBoostJSON   Kind = "xgboost-json"   // XGBoost's JSON (save_model("model.json"))
	XGBoostUBJSON Kind = "xgboost-ubjson" // XGBoost's UBJSON (save_model("model.ubj"))
	LightGBM      Kind = "lightgbm"       // LightGBM's text model (save_model)
	ONNX          Kind = "onnx"           // an ONNX model (protobuf) with ONNX-ML operators
	YDF           Kind = "ydf"            // a YDF model folder or a TF-DF SavedModel folder
)

// HeadSize is the number of leading bytes that Bytes looks at: File reads
// that many.
const HeadSize = 64 << 10

// Bytes returns the kind of the file that starts with head (its first
// HeadSize bytes, or the whole file if shorter).
func Bytes(head []byte) Kind {
	if len(head) > HeadSize {
		head = head[:HeadSize]
	}
	text := bytes.TrimLeft(head, " \t\r\n\ufeff")
	switch {
	case len(text) > 0 && text[0] == '{' && isUBJSONObject(head):
		if bytes.Contains(head, []byte("learner")) {
			return XGBoostUBJSON
		}
	case len(text) > 0 && text[0] == '{':
		// IR before XGBoost: an IR model may name a feature "learner".
		if bytes.Contains(text, []byte(`"format_version"`)) {
			return IR
		}
		if bytes.Contains(text, []byte(`"learner"`)) {
			return XGBoostJSON
		}
	case bytes.HasPrefix(text, []byte("tree\n")) || bytes.HasPrefix(text, []byte("tree\r\n")):
		return LightGBM
	case isONNX(head):
		return ONNX
	}
	return Unknown
}

// isUBJSONObject reports whether head starts as an UBJSON object: '{'
// followed by the length marker of the first key (or a container
// optimisation), where JSON has white space or a quote.
func isUBJSONObject(head []byte) bool {
	return len(head) > 1 && head[0] == '{' && bytes.IndexByte([]byte("iUIlL$#}"), head[1]) >= 0
}

// isONNX reports whether head starts as an ONNX ModelProto: field 1
// (ir_version, a small varint) first, as every ONNX writer puts it, and the
// ONNX operator set domain among the bytes.
func isONNX(head []byte) bool {
	if len(head) < 2 || head[0] != 0x08 || head[1] == 0 || head[1] > 0x7f {
		return false
	}
	return bytes.Contains(head, []byte("ai.onnx"))
}

// File returns the kind of the model file or folder at path: a folder is
// YDF when it holds a YDF model (header.pb and data_spec.pb), itself or in
// its assets folder (TF-DF's SavedModel); a file is what Bytes says of its
// first HeadSize bytes. The error is the one of opening or reading path.
func File(path string) (Kind, error) {
	st, err := os.Stat(path)
	if err != nil {
		return Unknown, err
	}
	if st.IsDir() {
		for _, dir := range []string{path, filepath.Join(path, "assets")} {
			if isFile(filepath.Join(dir, "header.pb")) && isFile(filepath.Join(dir, "data_spec.pb")) {
				return YDF, nil
			}
		}
		return Unknown, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return Unknown, err
	}
	defer f.Close()
	head := make([]byte, HeadSize)
	n, err := io.ReadFull(f, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return Unknown, fmt.Errorf("%s: %w", path, err)
	}
	return Bytes(head[:n]), nil
}

func isFile(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

// Importer returns the name of the treegen import subcommand that reads
// files of kind k ("xgboost", "lightgbm", "onnx", "ydf"), or "" for the IR
// (nothing to import) and Unknown.
func (k Kind) Importer() string {
	switch k {
	case XGBoostJSON, XGBoostUBJSON:
		return "xgboost"
	case LightGBM, ONNX, YDF:
		return string(k)
	}
	return ""
}

// String describes the kind in words, as an error message names a file:
// "an XGBoost model" (JSON or UBJSON), "a LightGBM model", "a treegen IR
// model", "an unknown file".
func (k Kind) String() string {
	switch k {
	case IR:
		return "a treegen IR model"
	case XGBoostJSON, XGBoostUBJSON:
		return "an XGBoost model"
	case LightGBM:
		return "a LightGBM model"
	case ONNX:
		return "an ONNX model"
	case YDF:
		return "a YDF model"
	}
	return "an unknown file"
}
