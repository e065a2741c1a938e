// Package overhead measures what fuzzharness itself costs per execution.
// Its fuzz tests come in pairs, through the harness and with plain
// strings, with the grammars, seeds and byte edits of examples/calc and
// examples/json, but with a target that only reads its input (Sum): the
// difference in executions per CPU second between the two of a pair is
// the harness's decoding, not the work a parser does on valid inputs.
//
//	kfuzz eval harness -examples overhead-calc,overhead-json -time 60s -runs 3
package overhead

// Sum returns the sum of the bytes of s. The fuzz targets call it so that
// each execution reads its whole input.
func Sum(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		n += int(s[i])
	}
	return n
}
