package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/seed72891827/kfuzz/learn/islearn"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

func init() {
	register(&command{
		name: "mine isla",
		usage: "-grammar FILE|NAME -pos DIR [-neg DIR] [-oracle 'CMD' | [PACKAGE] -fuzz FuzzX [-tags TAGS]]\n" +
			"\t\t[-catalog FILE] [-o FILE] [-f] [-n N] [-min-recall R] [-min-specificity S] [-max-disjunction N]\n" +
			"\t\t[-seed N] [-generated N] [-oracle-inputs N] [-mutations N] [-timeout D] [-max-candidates N]",
		short: "mine ISLa constraints from valid (and invalid) sample inputs (ISLearn)",
		run:   runMineISLA,
	})
}

const mineISLAHelp = `The samples are the files in -pos (valid inputs) and -neg (invalid ones),
not their subdirectories; every sample must be in the grammar's language.
The patterns of the catalog (built in, or -catalog FILE) are instantiated
with the nonterminals and texts of the valid samples; the instances that
accept at least -min-recall of them are ranked by specificity (share of
-neg rejected), then by the share of -generated random grammar inputs they
reject, then by simplicity. The best -n are printed with their recall and
specificity; -o writes the best as an .isla file (atomically; an existing
file is replaced only with -f) that kfuzz isla check takes.

With -oracle, the program labels more inputs: -oracle-inputs random grammar
inputs and -mutations mutants of the valid samples (one subtree replaced
by a random one, k-path-aware: of four mutants, the one that adds the most
3-paths not yet covered); those it rejects become invalid samples, those it
accepts valid ones. The oracle is a shell command run once per input with
sh -c; it accepts an input when it exits with status 0 (the input is on
its standard input, or in a temporary file named by {} in the command);
a run longer than -timeout is a rejection. With PACKAGE -fuzz FuzzX in
place of -oracle, the fuzz test FuzzX labels them: an input is valid when
its harness's grammar derives it and the target neither fails, panics nor
calls t.Skip (see kfuzz mine glade -h).

-max-disjunction 2 adds disjunctions of constraints that each hold on some
valid samples only (such as "the graph is a digraph" or "every edge is
undirected"), as ISLearn does; conjunctions are formed when no constraint
rejects every invalid sample.`

func runMineISLA(e *env, args []string) error {
	c := commands["mine isla"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, mineISLAHelp)
		fs.PrintDefaults()
	}
	gspec := fs.String("grammar", "", "grammar `file` or built-in name (required)")
	posDir := fs.String("pos", "", "the `directory` of valid samples (required)")
	negDir := fs.String("neg", "", "the `directory` of invalid samples")
	catFile := fs.String("catalog", "", "pattern catalog `file` (default: the built-in catalog)")
	out := fs.String("o", "", "write the best constraint to `file`")
	force := fs.Bool("f", false, "replace an existing -o file")
	n := fs.Int("n", 10, "print the best `n` constraints")
	minRecall := fs.Float64("min-recall", 1, "the least share of valid samples a constraint must accept")
	minSpec := fs.Float64("min-specificity", 0, "the least share of invalid samples a constraint must reject")
	maxDisj := fs.Int("max-disjunction", 1, "the most constraints a disjunction combines (`n`; 1: none)")
	cmdline := fs.String("oracle", "", "the oracle `command` that labels generated and mutated inputs")
	oracleInputs := fs.Int("oracle-inputs", islearn.DefaultOracleInputs, "random grammar inputs the -oracle labels (`n`)")
	mutations := fs.Int("mutations", 0, "mutants of the valid samples the -oracle labels (`n`)")
	timeout := fs.Duration("timeout", 10*time.Second, "the longest one -oracle run may take")
	seed := fs.Uint64("seed", 1, "seed of the generated inputs")
	generated := fs.Int("generated", islearn.DefaultGenerated, "random grammar inputs that rank constraints (`n`; 0: none)")
	maxCand := fs.Int("max-candidates", islearn.DefaultMaxCandidates, "stop with an error after `n` pattern instances")
	tf := addTargetFlags(fs)
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *gspec == "" || *posDir == "" || (len(rest) > 0 && !tf.given()) || (*cmdline != "" && tf.given()) {
		fs.Usage()
		return errUsage
	}
	if *minRecall < 0 || *minRecall > 1 {
		return fmt.Errorf("-min-recall must be between 0 and 1, not %g", *minRecall)
	}
	if *minSpec < 0 || *minSpec > 1 {
		return fmt.Errorf("-min-specificity must be between 0 and 1, not %g", *minSpec)
	}
	if *maxDisj < 1 {
		return fmt.Errorf("-max-disjunction must be at least 1, not %d", *maxDisj)
	}
	if *oracleInputs < 0 || *mutations < 0 {
		return fmt.Errorf("-oracle-inputs and -mutations must not be negative")
	}
	if *out != "" && !*force {
		if err := checkNew(*out); err != nil {
			return err
		}
	}
	gr, err := e.loadGraph(*gspec)
	if err != nil {
		return err
	}
	g := gr.Grammar
	opts := []islearn.Option{islearn.MinRecall(*minRecall), islearn.Seed(*seed),
		islearn.Generated(*generated), islearn.MaxCandidates(*maxCand), islearn.MinSpecificity(*minSpec),
		islearn.MaxDisjunction(*maxDisj), islearn.Mutations(*mutations)}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var (
		counter *oracle.Counter
		target  *targetOracle
	)
	if tf.given() {
		if target, err = tf.open(ctx, "mine isla", rest, *timeout); err != nil {
			return err
		}
		defer target.Close()
		counter = oracle.Counted(target)
		opts = append(opts, islearn.WithOracle(counter, *oracleInputs))
	} else if *cmdline != "" {
		o := oracle.Command("sh", "-c", *cmdline)
		o.Timeout = *timeout
		counter = oracle.Counted(o)
		opts = append(opts, islearn.WithOracle(counter, *oracleInputs))
	}
	if *catFile != "" {
		src, err := os.ReadFile(*catFile)
		if err != nil {
			return err
		}
		cat, err := islearn.ParseCatalog(*catFile, src)
		if err != nil {
			return constraintError(e, err)
		}
		opts = append(opts, islearn.WithCatalog(cat))
	}
	pos, err := readSeeds(*posDir)
	if err != nil {
		return err
	}
	var neg [][]byte
	if *negDir != "" {
		if neg, err = readSeeds(*negDir); err != nil {
			return err
		}
	}
	start := time.Now()
	cands, err := islearn.Learn(ctx, g, pos, neg, opts...)
	if target != nil {
		target.flush(newProgress(e.stderr, false))
	}
	if err != nil {
		return err
	}
	for i, cand := range cands[:min(*n, len(cands))] {
		spec := "n/a"
		if cand.Specificity >= 0 {
			spec = fmt.Sprintf("%.3f", cand.Specificity)
		}
		gen := ""
		if cand.Rejection >= 0 {
			gen = fmt.Sprintf(", rejects %.3f of generated inputs", cand.Rejection)
		}
		fmt.Fprintf(e.stdout, "# %d. %s: recall %.3f, specificity %s%s\n%s\n\n",
			i+1, cand.Pattern, cand.Recall, spec, gen, cand.Formula)
	}
	labelled := ""
	if counter != nil {
		st := counter.Stats()
		labelled = fmt.Sprintf(" and %d inputs the oracle labelled (%d valid)", st.Queries, st.Accepted)
	}
	fmt.Fprintf(e.stderr, "kfuzz mine isla: %d constraints from %d valid and %d invalid samples%s, %.1fs\n",
		len(cands), len(pos), len(neg), labelled, time.Since(start).Seconds())
	if target != nil {
		fmt.Fprintf(e.stderr, "kfuzz mine isla: %s\n", target.summary())
	}
	if len(cands) == 0 {
		return fmt.Errorf("no constraint of the catalog holds on the valid samples")
	}
	if *out != "" {
		best := cands[0]
		text := fmt.Sprintf("# Mined by kfuzz mine isla (pattern %s): recall %.3f on the valid samples.\n%s\n",
			best.Pattern, best.Recall, best.Formula)
		if err := writeOutput(*out, []byte(text), *force); err != nil {
			return err
		}
	}
	return nil
}
