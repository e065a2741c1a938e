package main

import (
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func init() {
	register(&command{
		name:  "demo",
		usage: "[-seed S]",
		short: "show kfuzz at work on the expression grammar of examples/calc",
		run:   runDemo,
	})
}

// runDemo shows what kfuzz does today on the expression grammar that the
// examples/calc target uses: the grammar, bounded random inputs, and a forest
// covering all its 2-paths. The full pipeline (learn which input features reach
// which function, then write targeted seeds) replaces it once the learning
// package exists.
func runDemo(e *env, args []string) error {
	fs := newFlagSet(e, commands["demo"])
	seed := fs.Uint64("seed", 1, "random seed")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	w := e.stdout
	g, err := grammar.Builtin("expr")
	if err != nil {
		return err
	}
	gr, err := grammar.Compile(g)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "== The expression grammar of TRIBBLE's Fig. 1 (kfuzz gen -grammar expr)\n\n%s\n", g)
	fmt.Fprintf(w, "== Its grammar graph: %d nodes; k-paths for k = 1..5:", len(gr.Nodes))
	for k := 1; k <= 5; k++ {
		fmt.Fprintf(w, " %d", gr.CountKPaths(k))
	}
	fmt.Fprintf(w, "\n\n== Ten random inputs (seed %d, depth <= 8)\n\n", *seed)
	gen := grammar.NewGenerator(gr, *seed)
	gen.MaxDepth = 8
	for range 10 {
		t, err := gen.Generate()
		if err != nil {
			return err
		}
		fmt.Fprintf(w, "  %s\n", t)
	}
	const k = 2
	closeOff := grammar.NewGenerator(gr, *seed)
	closeOff.MaxDepth = 10
	forest, err := gr.CoveringForest(k, closeOff.Complete)
	if err != nil {
		return err
	}
	pt, err := gr.PathTable(k)
	if err != nil {
		return err
	}
	covered, total := pt.Coverage(k, forest...)
	fmt.Fprintf(w, "\n== %d inputs that together cover %d of %d %d-paths (kfuzz cover-set -grammar expr -k 2)\n\n", len(forest), covered, total, k)
	for _, t := range forest {
		fmt.Fprintf(w, "  %s\n", t)
	}
	fmt.Fprintf(w, "\n== The derivation tree of %q\n\n%s", forest[0].String(), forest[0].Outline())
	fmt.Fprintln(w, "\nStill to come in this demo: per-input function coverage of examples/calc, the learned rule for its")
	fmt.Fprintln(w, "distributive function, and seeds generated to reach it.")
	return nil
}
