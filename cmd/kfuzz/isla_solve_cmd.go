package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/solver/z3"
	"github.com/seed72891827/kfuzz/fuzzharness/isla/tarpred"
	"github.com/seed72891827/kfuzz/internal/atomicfile"
)

// The solver settings of kfuzz isla solve and kfuzz eval isla: restarts
// every 1,500 inputs keep the outputs diverse, and a search that finds
// nothing within 1,000 states starts over instead of giving up (with the
// solver's own defaults, no restarts and 20,000 states, Scriptsize-C with
// seed 3 gives nothing). See docs/isla-eval.md.
const (
	solveRestart   = 1500
	solveMaxStates = 1000
)

func init() {
	register(&command{
		name:  "isla solve",
		usage: "-grammar FILE|NAME -constraint FILE [-constraint FILE ...] [-n N] [-seed S] [-o DIR] [-time D] [-max-states N] [-restart N] [-max-items N] [-non-vacuous] [-z3=false]",
		short: "generate inputs that satisfy ISLa constraints (the conjunction of the files), one quoted input a line or one file each in DIR; semantic predicates: count, tar_checksum, tar_size",
		run:   runISLASolve,
	})
}

// listFlag collects the values of a repeated flag.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(v string) error {
	*l = append(*l, v)
	return nil
}

// runISLASolve generates inputs. Exit status: 0 if it made N inputs, 1 if
// the solver gave up or proved the constraint unsatisfiable before, 2 if
// the grammar, the constraint or the flags are wrong. The semantic
// predicates are the built-in count and the TAR predicates tar_checksum and
// tar_size of package tarpred (for the built-in grammar tar), which also
// solve: they write the checksum and size fields.
func runISLASolve(e *env, args []string) error {
	c := commands["isla solve"]
	fs := newFlagSet(e, c)
	spec := fs.String("grammar", "", "grammar `file` or built-in name")
	var files listFlag
	fs.Var(&files, "constraint", "ISLa constraint `file` (repeat for a conjunction)")
	n := fs.Int("n", 10, "number of inputs to generate")
	seed := fs.Uint64("seed", 1, "seed of the solver's random choices")
	outDir := fs.String("o", "", "write each input to a file of its own in `DIR` (named by its SHA-256; existing files are kept)")
	limit := fs.Duration("time", time.Minute, "time limit")
	maxStates := fs.Int("max-states", solveMaxStates, "states one search may process per input; with -restart, a search that runs out starts over (up to solver.MaxRestartsPerSolution times) before giving up")
	restart := fs.Int("restart", solveRestart, "start the search over after every `n` inputs, for diversity (solver.RestartEvery; 0: never)")
	maxItems := fs.Int("max-items", 0, "bound on the Earley items of each parse of a solved text (`n`; 0: the parser's default, grammar.DefaultMaxItems)")
	useZ3 := fs.Bool("z3", true, "solve with Z3 the atoms the solver cannot solve in Go")
	nonVacuous := fs.Bool("non-vacuous", false, "prefer (solver.NonVacuous and the cost function's vacuity term) and keep only inputs in which every universal quantifier has at least one instance")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		fs.Usage()
		return errUsage
	}
	if *n < 1 {
		return &exitError{code: 2, err: errors.New("-n must be at least 1")}
	}
	if len(files) == 0 {
		return &exitError{code: 2, err: errors.New("no constraint given: use -constraint FILE")}
	}
	gr, err := e.loadGraph(*spec)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	var cs []*isla.Constraint
	for _, f := range files {
		con, err := loadConstraint(e, f)
		if err != nil {
			return err
		}
		cs = append(cs, con)
	}
	con, err := isla.Conjoin(cs...)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	sp, err := isla.Compile(con, gr, tarpred.Predicates())
	if err != nil {
		return constraintError(e, err)
	}
	opts := []solver.Option{solver.Seed(*seed), solver.MaxStates(*maxStates), solver.RestartEvery(*restart), solver.MaxItems(*maxItems)}
	if *nonVacuous {
		opts = append(opts, preferNonVacuous()...)
	}
	if *useZ3 {
		z, err := z3.New()
		switch {
		case errors.Is(err, z3.ErrNoZ3):
			fmt.Fprintln(e.stderr, "kfuzz isla solve: Z3 is not available in this build; solving in Go only")
		case err != nil:
			return err
		default:
			defer z.Close()
			opts = append(opts, solver.WithSMTSolver(z))
		}
	}
	s, err := solver.New(sp, opts...)
	if err != nil {
		return &exitError{code: 2, err: err}
	}
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			return err
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), *limit)
	defer cancel()
	vac := newVacuity(sp)
	defer vac.report(e, *nonVacuous)
	for made := 0; made < *n; {
		t, err := s.Next(ctx)
		if err != nil {
			if errors.Is(err, solver.ErrInvalidOutput) {
				return err
			}
			var gu *solver.GaveUpError
			if errors.As(err, &gu) {
				switch gu.Limit {
				case solver.LimitStates:
					gu.Flag = "-max-states"
				case solver.LimitTime:
					gu.Flag, gu.Value = "-time", limit.String()
				case solver.LimitItems:
					gu.Flag = "-max-items"
				}
			}
			return &exitError{code: 1, err: fmt.Errorf("%d of %d inputs: %w", made, *n, err)}
		}
		if !vac.add(t) && *nonVacuous {
			continue
		}
		made++
		in := t.Bytes()
		if *outDir == "" {
			fmt.Fprintln(e.stdout, strconv.Quote(string(in)))
			continue
		}
		if err := writeNew(*outDir, in); err != nil {
			return err
		}
	}
	return nil
}

// vacuity counts, per universal quantifier of a constraint, the inputs in
// which it has an instance.
type vacuity struct {
	spec    *isla.Spec
	qs      []*isla.Quantifier
	matched []int
	inputs  int // inputs seen
	full    int // inputs in which every quantifier matched
}

func newVacuity(sp *isla.Spec) *vacuity {
	qs := sp.Universals()
	return &vacuity{spec: sp, qs: qs, matched: make([]int, len(qs))}
}

// add counts the input of tree t and reports whether every universal
// quantifier has an instance in it.
func (v *vacuity) add(t *grammar.Tree) bool {
	v.inputs++
	all := true
	for i, m := range v.spec.Matched(t) {
		if m {
			v.matched[i]++
		}
		all = all && m
	}
	if all {
		v.full++
	}
	return all
}

// report prints, for each universal quantifier, the share of the inputs
// in which it matched.
func (v *vacuity) report(e *env, nonVacuous bool) {
	if len(v.qs) == 0 || v.inputs == 0 {
		return
	}
	for i, q := range v.qs {
		fmt.Fprintf(e.stderr, "kfuzz isla solve: %s: forall <%s> %s matched in %d of %d inputs (%.0f%%)\n",
			q.P, q.Type, q.Var, v.matched[i], v.inputs, 100*float64(v.matched[i])/float64(v.inputs))
	}
	if nonVacuous {
		fmt.Fprintf(e.stderr, "kfuzz isla solve: kept the %d of %d inputs in which every universal quantifier matched\n", v.full, v.inputs)
	}
}

// writeNew writes data atomically to a file of dir named by its SHA-256,
// unless that file exists: then it holds the same input, written before,
// and is kept.
func writeNew(dir string, data []byte) error {
	sum := sha256.Sum256(data)
	err := atomicfile.Write(filepath.Join(dir, hex.EncodeToString(sum[:8])), data, false)
	if errors.Is(err, os.ErrExist) {
		return nil
	}
	return err
}

// preferNonVacuous returns the solver options under which it prefers
// solutions in which every universal quantifier matched: the vacuity term
// of the cost function, and holding vacuous solutions back.
func preferNonVacuous() []solver.Option {
	w := solver.DefaultWeights
	w.Vacuity = 10
	return []solver.Option{solver.CostWeights(w), solver.NonVacuous(solver.DefaultNonVacuous)}
}
