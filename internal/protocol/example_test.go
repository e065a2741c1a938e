package protocol_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/internal/protocol"
)

// A record as the harness writes it for one input, with the counters that
// kfuzz's hook returned, read back as the tool reads it.
func Example() {
	var out bytes.Buffer // the file named by KFUZZ_OUT
	rec := &protocol.Record{
		Target: "FuzzCalc", Index: 0, ID: "seed#1", Input: "x*(y+1)", Status: protocol.StatusPass,
		Extra: json.RawMessage(`{"before":{"example.com/calc":[0,1]},"blocks":{"example.com/calc":[3,2,7,1]}}`),
	}
	if err := protocol.WriteRecord(&out, rec); err != nil {
		log.Fatal(err)
	}

	recs, err := protocol.ReadRecords(&out)
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range recs {
		c, err := r.Counters()
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s %q %s: blocks %v\n", r.ID, r.Input, r.Status, c.Blocks)
	}
	// Output:
	// seed#1 "x*(y+1)" pass: blocks map[example.com/calc:[3 2 7 1]]
}
