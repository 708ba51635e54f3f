// nullserver answers every HTTP request at once with 202 and a small JSON body, doing nothing else: run in place of
// the pipeline, it shows what a k6 suite's latencies would be with a server that costs next to nothing, on the same
// cores as the generator (bench/seed-waves.sh TARGET=null). GET /data-units/count answers {"count":0} so the suites'
// final checks end instead of failing to parse.
package main

import (
	"flag"
	"log"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:28090", "listen address")
	flag.Parse()
	accepted := []byte(`{"accepted":1}`)
	count := []byte(`{"count":0}`)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			w.WriteHeader(http.StatusOK)
			w.Write(count)
			return
		}
		w.WriteHeader(http.StatusAccepted)
		w.Write(accepted)
	})
	log.Fatal(http.ListenAndServe(*addr, handler))
}
