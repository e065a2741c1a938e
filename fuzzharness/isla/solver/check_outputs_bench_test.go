package solver_test

import (
	"context"
	"testing"
)

// BenchmarkCheckOutputs validates the solver's own outputs with
// isla.Spec.Check, as kfuzz eval isla does after each one: 2,000 outputs
// per subject with the eval's settings, checked in turn.
func BenchmarkCheckOutputs(b *testing.B) {
	for _, sub := range []struct {
		name, grammar string
		files         []string
	}{
		{"xml", "xml", []string{"xml-balance.isla", "xml-namespace.isla", "xml-no-redef.isla"}},
		{"c", "scriptsizec", []string{"scriptsizec-def-use.isla", "scriptsizec-no-redef.isla"}},
		{"rest", "rest", []string{"rest-title.isla"}},
	} {
		b.Run(sub.name, func(b *testing.B) {
			spec := compileAll(b, sub.grammar, sub.files)
			s := evalSolver(b, sub.grammar, sub.files)
			var outs [][]byte
			for range 2000 {
				t, err := s.Next(context.Background())
				if err != nil {
					b.Fatal(err)
				}
				outs = append(outs, t.Bytes())
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; b.Loop(); i++ {
				if r, err := spec.Check(outs[i%len(outs)]); err != nil || !r.Valid {
					b.Fatalf("%q: %v %v", outs[i%len(outs)], err, r)
				}
			}
		})
	}
}
