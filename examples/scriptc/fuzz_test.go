package scriptc_test

import (
	_ "embed"
	"errors"
	"flag"
	"reflect"
	"testing"

	"github.com/seed72891827/kfuzz/examples/scriptc"
	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
)

// The ISLa constraints of Scriptsize-C, copies of the isla package's
// testdata.
var (
	//go:embed testdata/def-use.isla
	defUseSrc []byte
	//go:embed testdata/no-redef.isla
	noRedefSrc []byte
)

// An solver.Repairer is a fuzzharness.Constraint.
var _ fuzzharness.Constraint = (*solver.Repairer)(nil)

// maxSteps is the step limit of the fuzz targets' runs.
const maxSteps = 5000

// newRepairer compiles def-use and no-redef against the scriptsizec grammar
// and returns a repairer for them.
func newRepairer(tb testing.TB) (*grammar.Graph, *solver.Repairer) {
	tb.Helper()
	gr := grammar.MustCompile(grammar.MustBuiltin("scriptsizec"))
	defUse, err := isla.Parse("def-use.isla", defUseSrc)
	if err != nil {
		tb.Fatal(err)
	}
	noRedef, err := isla.Parse("no-redef.isla", noRedefSrc)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := isla.Conjoin(defUse, noRedef)
	if err != nil {
		tb.Fatal(err)
	}
	spec, err := isla.Compile(c, gr)
	if err != nil {
		tb.Fatal(err)
	}
	rep, err := solver.NewRepairer(spec)
	if err != nil {
		tb.Fatal(err)
	}
	return gr, rep
}

// solverSeeds returns the solver's seeds, except in a worker process of
// go test -fuzz, which never runs its seeds: the harness of FuzzInterp
// makes none there either, so that all targets start alike.
func solverSeeds(rep *solver.Repairer) []*grammar.Tree {
	if f := flag.Lookup("test.fuzzworker"); f != nil && f.Value.String() == "true" {
		return nil
	}
	return rep.Seeds(fuzzharness.DefaultConstraintSeeds)
}

// checkValid is the property of the constraint-aware targets: a program of
// the grammar that satisfies def-use and no-redef parses, passes Check, and
// runs without an error other than the step limit, the same way twice.
func checkValid(t *testing.T, src string) {
	p, err := scriptc.Parse(src)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	if err := p.Check(); err != nil {
		t.Fatalf("Check rejects a program that satisfies the constraints: %v", err)
	}
	r1, err1 := p.Run(maxSteps)
	if err1 != nil && !errors.Is(err1, scriptc.ErrStepLimit) {
		t.Fatalf("Run: %v", err1)
	}
	r2, err2 := p.Run(maxSteps)
	if !reflect.DeepEqual(r1, r2) || (err1 == nil) != (err2 == nil) {
		t.Fatalf("two runs differ: %v, %v and %v, %v", r1, err1, r2, err2)
	}
}

// invalidShare is the share of the constraint-aware target's inputs that
// the harness makes invalid on purpose (fuzzharness.WithInvalidShare), so
// that the fuzzer also reaches the parser's and Check's errors.
const invalidShare = 0.1

// FuzzInterp is the constraint-aware fuzz target: the harness decodes the
// fuzzer's bytes into programs of the scriptsizec grammar and repairs those
// that violate def-use or no-redef, so that almost every execution runs
// the interpreter on a program that Check accepts. A tenth of the programs
// reach it with one near-valid mutation (a token deleted, duplicated or
// swapped, a byte changed); those must give a syntax error or a program
// that runs if Check accepts it (checkAny, the plain target's property). The run reports the shares
// (go test -v, or KFUZZ_STATS).
func FuzzInterp(f *testing.F) {
	gr, rep := newRepairer(f)
	fuzzharness.NewGraph(f, gr, fuzzharness.WithConstraint(rep), fuzzharness.WithInvalidShare(invalidShare)).
		Fuzz(func(t *testing.T, in fuzzharness.Input) {
			if !in.Edited() {
				checkValid(t, in.String())
				return
			}
			checkAny(t, in.String())
		})
}

// checkAny is the property of any text: it gives a program or a syntax
// error with an offset inside the text, and a program that Check accepts
// runs without an error other than the step limit.
func checkAny(t *testing.T, src string) {
	p, err := scriptc.Parse(src)
	if err != nil {
		var se *scriptc.SyntaxError
		if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(src) {
			t.Fatalf("Parse(%q): %v", src, err)
		}
		return
	}
	if err := p.Check(); err != nil {
		// Run may still succeed: the rejected statement may never run.
		return
	}
	if _, err := p.Run(maxSteps); err != nil && !errors.Is(err, scriptc.ErrStepLimit) {
		t.Fatalf("Run(%q): %v", src, err)
	}
}

// FuzzInterpNoRepair is the same target with the constraint as a mere
// validity predicate: inputs that violate it are skipped, not repaired. Its
// report shows the share of valid inputs that the grammar alone gives.
func FuzzInterpNoRepair(f *testing.F) {
	gr, rep := newRepairer(f)
	c, err := fuzzharness.NewCodec(gr)
	if err != nil {
		f.Fatal(err)
	}
	var seeds []*grammar.Tree
	for _, t := range solverSeeds(rep) {
		if _, err := c.Encode(t); err == nil {
			seeds = append(seeds, t)
		}
	}
	fuzzharness.NewGraph(f, gr, fuzzharness.WithValidity(rep.Valid), fuzzharness.WithSeedTrees(seeds...)).
		FuzzString(checkValid)
}

// FuzzInterpGrammar is the target of FuzzInterpPlain through the harness
// with the grammar alone, without the constraint: every input parses, and
// most fail Check.
func FuzzInterpGrammar(f *testing.F) {
	gr := grammar.MustCompile(grammar.MustBuiltin("scriptsizec"))
	fuzzharness.NewGraph(f, gr).FuzzString(func(t *testing.T, src string) {
		p, err := scriptc.Parse(src)
		if err != nil {
			t.Fatalf("Parse(%q) of a program of the grammar: %v", src, err)
		}
		if err := p.Check(); err != nil {
			return
		}
		if _, err := p.Run(maxSteps); err != nil && !errors.Is(err, scriptc.ErrStepLimit) {
			t.Fatalf("Run(%q): %v", src, err)
		}
	})
}

// FuzzInterpPlain is a plain string target with the solver's programs as
// seeds: the fuzzer mutates text, and most mutants fail to parse or Check.
// It fuzzes the parser too: any text gives a program or a syntax error with
// an offset inside the text, and a program that Check accepts runs without
// a semantic error.
func FuzzInterpPlain(f *testing.F) {
	_, rep := newRepairer(f)
	for _, t := range solverSeeds(rep) {
		f.Add(t.String())
	}
	f.Fuzz(checkAny)
}
