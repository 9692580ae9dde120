// Package sniff tells, from the first bytes of a file (or the files of a
// folder), which kind of model file it is: treegen's IR, XGBoost's JSON or
// UBJSON, LightGBM's text, an ONNX protobuf, or a YDF / TF-DF model folder.
// Commands use it to name the importer a file needs instead of failing in
// the wrong parser:
//
//	k, err := sniff.File(path)
//	if err == nil && k.Importer() != "" && k.Importer() != "xgboost" {
//		// "FILE is a LightGBM model: import it with treegen import lightgbm FILE"
//	}
//
// It recognises only what it can tell reliably from a file's start; any
// other file is Unknown, and the importer that reads it reports its own
// errors.
package sniff
