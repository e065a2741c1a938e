package pipeline

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/seed72891827/kfuzz/internal/gomod"
	"github.com/seed72891827/kfuzz/learn"
)

// DemoFunc is the function of the calc example the demo aims at: the
// distributive law of its simplifier, which only multiplications, divisions
// and remainders with a parenthesised sum as an operand reach.
const DemoFunc = CalcModule + ".(*simplifier).distribute"

// DemoOptions configure RunDemo.
type DemoOptions struct {
	// Out receives the demo's narration.
	Out io.Writer
	// Progress, if not nil, hears about long steps.
	Progress Progress
	// Dir is the directory to write the calc module into; it must be empty
	// or not exist. Empty means a temporary directory, removed afterwards.
	Dir string
	// Source says where the module finds kfuzz; the zero Source means
	// gomod.FindSource.
	Source gomod.Source
	// N, Seed and Seeds are passed to Learn (N) and Seeds (N = Seeds).
	N     int
	Seed  uint64
	Seeds int
}

// A DemoResult is what RunDemo did.
type DemoResult struct {
	// Dir is the calc module's directory (removed unless DemoOptions.Dir
	// was given).
	Dir string
	// Learned is the model with its evidence.
	Learned *Learned
	// Rules are the rules of DemoFunc.
	Rules []*learn.Rule
	// Seeds are the inputs generated for DemoFunc; those that reached it
	// were added to the module's testdata/fuzz/FuzzCalc.
	Seeds []Seed
}

// RunDemo runs the whole pipeline on the calc example in a module of its own
// (see WriteCalcModule): it learns which inputs reach which function of the
// calculator, prints the rules of the distributive law, generates inputs
// from them, measures which really reach it and adds those to the module's
// seed corpus. It narrates each step to Out.
func RunDemo(ctx context.Context, opts DemoOptions) (*DemoResult, error) {
	w := opts.Out
	if w == nil {
		w = io.Discard
	}
	start := time.Now()
	src := opts.Source
	if src == (gomod.Source{}) {
		var err error
		if src, err = gomod.FindSource(ctx); err != nil {
			return nil, err
		}
	}
	res := &DemoResult{Dir: opts.Dir}
	if res.Dir == "" {
		dir, err := os.MkdirTemp("", "kfuzz-demo-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		res.Dir = dir
	}
	from := "kfuzz " + src.Version
	if src.Dir != "" {
		from = "the kfuzz source in " + src.Dir
	}
	fmt.Fprintf(w, "== 1. The calc example: an expression parser, evaluator and simplifier, with the fuzz test\n")
	fmt.Fprintf(w, "   FuzzCalc, which feeds it inputs of the expr grammar through fuzzharness. Copied into a module of\n")
	fmt.Fprintf(w, "   its own in %s (using %s).\n\n", res.Dir, from)
	fmt.Fprintf(w, "== 2. Build FuzzCalc once with coverage instrumentation of the calc package.\n")
	s, err := OpenCalc(ctx, res.Dir, src)
	if err != nil {
		return nil, err
	}
	defer s.Close()
	s.Progress = opts.Progress
	fmt.Fprintf(w, "   %d functions to measure; the grammar, from the harness:\n\n%s\n", len(s.Functions()), indentText(s.Desc.Grammar, "     "))

	fmt.Fprintf(w, "== 3. Learn (kfuzz learn): run the target over the harness's seeds, the corpus and random inputs,\n")
	fmt.Fprintf(w, "   record the functions each input covers, and learn a decision tree per function over the inputs'\n")
	fmt.Fprintf(w, "   k-paths; refine the trees of rarely covered functions; test on other random inputs.\n")
	l, err := s.Learn(ctx, LearnOptions{N: opts.N, Seed: opts.Seed})
	if err != nil {
		return nil, err
	}
	res.Learned = l
	counts := map[string]int{}
	for _, o := range l.Train {
		counts[o.Source]++
	}
	fmt.Fprintf(w, "   %d training inputs (%d seeds, %d corpus entries, %d random, %d from refinement), %d test inputs.\n",
		len(l.Train), counts[SourceSeed], counts[SourceCorpus], counts[SourceRandom], counts[SourceRefine], len(l.Test))
	fmt.Fprintf(w, "   %d functions learned; on the test set accuracy %.3f, precision %.3f, recall %.3f over all pairs.\n\n",
		len(l.Model.Funcs), l.Eval.Micro.Accuracy(), l.Eval.Micro.Precision(), l.Eval.Micro.Recall())

	fn := l.Model.Func(DemoFunc)
	if fn == nil {
		return nil, fmt.Errorf("the model has no tree for %s (covered by no or by every training input)", DemoFunc)
	}
	res.Rules = fn.Rules
	fmt.Fprintf(w, "== 4. What reaches the distributive law? %s was covered by %d of %d training inputs.\n", DemoFunc, fn.Pos, fn.Pos+fn.Neg)
	if len(fn.Rules) == 0 {
		fmt.Fprintf(w, "   Its tree has no rule: no leaf predicts coverage purely enough.\n\n")
	} else {
		fmt.Fprintf(w, "   The rule that most covering training inputs satisfy (each clause is a k-path the input must or\n")
		fmt.Fprintf(w, "   must not contain, shown as the piece of grammar it stands for):\n\n")
		fmt.Fprintf(w, "%s\n", indentText(MainRule(fn).Format(l.Model.Table), "   "))
		if len(fn.Rules) > 1 {
			fmt.Fprintf(w, "   (and %d more rules of smaller leaves; see kfuzz learn's report)\n", len(fn.Rules)-1)
		}
		fmt.Fprintln(w)
	}

	fmt.Fprintf(w, "== 5. Seed (kfuzz seed -target distribute): generate inputs from the rules, measure them, and add\n")
	fmt.Fprintf(w, "   those that really reach the function to testdata/fuzz/FuzzCalc, where go test runs them.\n")
	seeds, err := s.Seeds(ctx, l.Model, DemoFunc, SeedOptions{N: opts.Seeds, Seed: opts.Seed})
	if err != nil {
		return nil, err
	}
	if err := WriteSeeds(s.TestdataDir(), seeds); err != nil {
		return nil, err
	}
	res.Seeds = seeds
	reached := 0
	for _, sd := range seeds {
		if sd.Reached {
			reached++
			fmt.Fprintf(w, "   + %-32s testdata/fuzz/FuzzCalc/%s\n", strconv.Quote(sd.Text), sd.Name)
		}
	}
	fmt.Fprintf(w, "   %d of %d generated inputs reached %s.\n\n", reached, len(seeds), DemoFunc)
	fmt.Fprintf(w, "Done in %.1fs. Run the same on your own fuzz test: kfuzz learn -fuzz FuzzX ./pkg, then kfuzz seed.\n", time.Since(start).Seconds())
	if opts.Dir == "" {
		fmt.Fprintf(w, "The module was in a temporary directory, removed now; kfuzz demo -keep DIR keeps it.\n")
	} else {
		fmt.Fprintf(w, "The module is kept in %s: go test there runs the new seeds.\n", res.Dir)
	}
	return res, nil
}

// MainRule returns the rule of fn whose leaf the most covering training
// inputs reached (the first of those, best first), or nil if fn has none.
func MainRule(fn *learn.Func) *learn.Rule {
	var best *learn.Rule
	for _, r := range fn.Rules {
		if best == nil || r.Pos > best.Pos {
			best = r
		}
	}
	return best
}

// indentText indents every line of s.
func indentText(s, prefix string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = prefix + l
		}
	}
	return strings.Join(lines, "\n")
}
