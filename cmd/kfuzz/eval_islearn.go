package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/seed72891827/kfuzz/internal/islearneval"
)

func init() {
	register(&command{
		name:  "eval islearn",
		usage: "[-subjects xml,scriptsizec,dot,icmp,racket] [-seed S] [-loop N] [-v]",
		short: "mine ISLa constraints for ISLearn's subjects and check them on held-out inputs (Table 3)",
		run:   runEvalISLearn,
	})
}

const evalISLearnHelp = `For every subject, kfuzz eval islearn makes training and held-out inputs
(valid ones labelled by the subject's oracle: dot's edge check, an ICMP
echo checker, a Racket-like def-use checker; the reference constraint of
the ISLa paper for xml and scriptsizec), mines constraints from the
training inputs as kfuzz mine isla does, and checks the best one on the
held-out inputs: recall (valid ones accepted) and specificity (invalid ones
rejected), next to the figures of the ISLearn paper's Table 3. -v prints
the mined constraints.

With -loop N, it also closes the loop for every subject: the mined
constraint is given to a fuzz harness
(fuzzharness.WithConstraint with the solver's repairer), which runs its
target on N random byte strings; it prints the share of executions that
ran the target on a valid input, with the grammar only and with the mined
constraint, the share of the target's runs that got a valid input (the
harness skips inputs it cannot repair), and how many of 20 inputs the
solver makes for the mined constraint are valid. docs/islearn.md holds
the results.`

func runEvalISLearn(e *env, args []string) error {
	c := commands["eval islearn"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, evalISLearnHelp)
		fs.PrintDefaults()
	}
	names := fs.String("subjects", "xml,scriptsizec,dot,icmp,racket", "comma-separated `subjects`")
	seed := fs.Uint64("seed", 1, "seed of the samples and the miner")
	verbose := fs.Bool("v", false, "print the mined constraints")
	loop := fs.Int("loop", 0, "measure the valid share of a harness over `n` executions (0: do not)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		fs.Usage()
		return errUsage
	}
	if *loop < 0 {
		return fmt.Errorf("-loop must not be negative, not %d", *loop)
	}
	all, err := islearneval.Subjects()
	if err != nil {
		return err
	}
	var subjects []*islearneval.Subject
	for _, n := range strings.Split(*names, ",") {
		i := slices.IndexFunc(all, func(s *islearneval.Subject) bool { return s.Name == n })
		if i < 0 {
			return fmt.Errorf("-subjects: no subject %q (want xml, scriptsizec, dot, icmp or racket)", n)
		}
		subjects = append(subjects, all[i])
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "subject\ttrain +/-\theld-out +/-\tTP\tFN\tFP\tTN\trecall\tspecificity\tpaper recall\tpaper spec.\tmining\tpattern")
	var mined []string
	var results []*islearneval.Result
	for _, s := range subjects {
		r, err := islearneval.Run(ctx, s, *seed)
		if err != nil {
			return err
		}
		paper := func(v float64) string {
			if v < 0 {
				return "-"
			}
			return fmt.Sprintf("%.0f%%", 100*v)
		}
		fmt.Fprintf(tw, "%s\t%d/%d\t%d/%d\t%d\t%d\t%d\t%d\t%.0f%%\t%.0f%%\t%s\t%s\t%.1fs\t%s\n",
			s.Name, r.TrainPos, r.TrainNeg, r.TP+r.FN, r.FP+r.TN, r.TP, r.FN, r.FP, r.TN,
			100*r.Recall(), 100*r.Specificity(), paper(s.Paper.Recall), paper(s.Paper.Specificity),
			r.Mine.Seconds(), r.Best.Pattern)
		results = append(results, r)
		mined = append(mined, fmt.Sprintf("# %s (%s)\n%s\n", s.Name, s.Paper.Note, r.Best.Formula))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if *verbose {
		fmt.Fprintf(e.stdout, "\n%s", strings.Join(mined, "\n"))
	}
	if *loop == 0 {
		return nil
	}
	fmt.Fprintf(e.stdout, "\nValid executions of a harness over %d random inputs (seed %d):\n", *loop, *seed)
	tw = tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "subject\tgrammar only: valid/runs\tmined constraint: valid/runs\tvalid/target runs\tsolver: valid")
	var gaveUp []string
	for _, res := range results {
		s := res.Subject
		r, err := islearneval.Loop(ctx, s, res.Best.Formula, *seed, *loop)
		if err != nil {
			return err
		}
		solved := fmt.Sprintf("%d/%d", r.SolvedValid, r.Solved)
		if r.SolveErr != nil {
			solved = "gave up"
			gaveUp = append(gaveUp, fmt.Sprintf("%s: %v", s.Name, r.SolveErr))
		}
		fmt.Fprintf(tw, "%s\t%d/%d (%.1f%%)\t%d/%d (%.1f%%)\t%d/%d (%.1f%%)\t%s\n", s.Name,
			r.Plain.Valid, r.Plain.Execs, 100*r.Plain.Rate(),
			r.Constrained.Valid, r.Constrained.Execs, 100*r.Constrained.Rate(),
			r.Constrained.Valid, r.Constrained.Reached, 100*r.Constrained.ReachedRate(),
			solved)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, g := range gaveUp {
		fmt.Fprintf(e.stdout, "solver %s\n", g)
	}
	return nil
}
