package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"time"

	"github.com/seed72891827/kfuzz/learn/islearn"
)

func init() {
	register(&command{
		name: "mine isla",
		usage: "-grammar FILE|NAME -pos DIR [-neg DIR] [-catalog FILE] [-o FILE] [-f] [-n N] [-min-recall R]\n" +
			"\t\t[-seed N] [-generated N] [-max-candidates N]",
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
file is replaced only with -f) that kfuzz isla check takes.`

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
	seed := fs.Uint64("seed", 1, "seed of the generated inputs")
	generated := fs.Int("generated", islearn.DefaultGenerated, "random grammar inputs that rank constraints (`n`; 0: none)")
	maxCand := fs.Int("max-candidates", islearn.DefaultMaxCandidates, "stop with an error after `n` pattern instances")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *gspec == "" || *posDir == "" || len(rest) > 0 {
		fs.Usage()
		return errUsage
	}
	if *minRecall < 0 || *minRecall > 1 {
		return fmt.Errorf("-min-recall must be between 0 and 1, not %g", *minRecall)
	}
	if *out != "" && !*force {
		if err := checkNew(*out); err != nil {
			return err
		}
	}
	g, err := loadGrammar(*gspec)
	if err != nil {
		return err
	}
	opts := []islearn.Option{islearn.MinRecall(*minRecall), islearn.Seed(*seed),
		islearn.Generated(*generated), islearn.MaxCandidates(*maxCand)}
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
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	cands, err := islearn.Learn(ctx, g, pos, neg, opts...)
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
	fmt.Fprintf(e.stderr, "kfuzz mine isla: %d constraints from %d valid and %d invalid samples, %.1fs\n",
		len(cands), len(pos), len(neg), time.Since(start).Seconds())
	if len(cands) == 0 {
		return fmt.Errorf("no constraint of the catalog holds on the valid samples")
	}
	if *out != "" {
		best := cands[0]
		text := fmt.Sprintf("# Mined by kfuzz mine isla (pattern %s): recall %.3f on %d valid samples.\n%s\n",
			best.Pattern, best.Recall, len(pos), best.Formula)
		if err := writeOutput(*out, []byte(text), *force); err != nil {
			return err
		}
	}
	return nil
}
