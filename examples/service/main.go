// Command service serves the predictions of a model compiled into it over
// HTTP: POST /predict with a patient's measurements as JSON returns whether
// the model predicts heart disease, and its probability.
//
//	go run ./examples/service -addr localhost:8080
//	curl -d '{"age": 63, "sex": 1, "cp": 3, "thal": 1}' localhost:8080/predict
//
// The model, model.json, is what
//
//	treegen train gbdt --data testdata/pmlb/heart_c.tsv.gz --objective logistic --trees 200 \
//	    --max-depth 3 --valid-fraction 0.2 --early-stopping 20 -o examples/service/model.json
//
// trains; the package heart is generated from it by the go:generate line of
// heart/generate.go (go generate ./examples/service/...). The binary carries
// no model file and links no model runtime.
package main

import (
	"flag"
	"log"
	"net/http"
	"time"
)

func main() {
	addr := flag.String("addr", "localhost:8080", "address to listen on")
	flag.Parse()
	srv := &http.Server{Addr: *addr, Handler: routes(), ReadHeaderTimeout: 10 * time.Second}
	log.Printf("serving POST http://%s/predict", *addr)
	log.Fatal(srv.ListenAndServe())
}
