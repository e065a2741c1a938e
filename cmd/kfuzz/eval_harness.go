package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed72891827/kfuzz/internal/evalharness"
	"github.com/seed72891827/kfuzz/internal/gomod"
)

func init() {
	register(&command{
		name:  "eval harness",
		usage: "[-time 30s] [-parallel N] [-examples calc,json] [-keep DIR]",
		short: "compare grammar-aware fuzzing through fuzzharness with plain string fuzzing on the examples",
		run:   runEvalHarness,
	})
}

func runEvalHarness(e *env, args []string) error {
	c := commands["eval harness"]
	fs := newFlagSet(e, c)
	fuzzTime := fs.Duration("time", 30*time.Second, "how long to fuzz each fuzz test")
	parallel := fs.Int("parallel", 2, "fuzzing worker processes")
	which := fs.String("examples", "calc,json", "comma-separated examples to evaluate")
	keep := fs.String("keep", "", "keep the fuzz caches and binaries in `dir` instead of a temporary directory")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root, err := kfuzzModuleRoot()
	if err != nil {
		return err
	}
	work := *keep
	if work == "" {
		if work, err = os.MkdirTemp("", "kfuzz-eval-"); err != nil {
			return err
		}
		defer os.RemoveAll(work)
	} else if err := os.MkdirAll(work, 0o777); err != nil {
		return err
	}
	wanted := map[string]bool{}
	for _, n := range strings.Split(*which, ",") {
		wanted[strings.TrimSpace(n)] = true
	}
	var subjects []evalharness.Subject
	for _, sub := range evalharness.Subjects {
		if wanted[sub.Name] {
			subjects = append(subjects, sub)
			delete(wanted, sub.Name)
		}
	}
	for n := range wanted {
		return fmt.Errorf("unknown example %q (have calc, json)", n)
	}
	results, err := evalharness.Compare(ctx, root, work, subjects, *fuzzTime, *parallel, e.stderr)
	if err != nil {
		return err
	}

	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "example\tfuzz test\texecs\texecs/s\tCPU s\texecs/CPU s\tcorpus\tcovered\tcoverage\t%s\n", "notes")
	for _, res := range results {
		for _, r := range []*evalharness.Run{res.Harness, res.Plain} {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%.0f\t%.1f\t%.0f\t%d\t%d/%d\t%.1f%%\t%s\n", res.Subject.Name, r.Target, r.Execs, r.Rate(),
				r.CPU.Seconds(), r.CPURate(), r.Corpus, r.Covered, r.Stmts, r.Coverage(), r.Failure)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	for _, res := range results {
		h, p := res.Harness, res.Plain
		ratio, cpuRatio := 0.0, 0.0
		if p.Rate() > 0 {
			ratio = h.Rate() / p.Rate()
		}
		if p.CPURate() > 0 {
			cpuRatio = h.CPURate() / p.CPURate()
		}
		fmt.Fprintf(e.stdout, "%s: harness execs/s %.0f%% of plain, per CPU second %.0f%% (goal >= 50%%: %s); coverage %+.1f points over plain (goal > 0: %s); coverage of %s\n",
			res.Subject.Name, 100*ratio, 100*cpuRatio, verdict(ratio >= 0.5 || cpuRatio >= 0.5), h.Coverage()-p.Coverage(), verdict(h.Covered > p.Covered), res.Subject.CoverPkg)
		hn, hf := evalharness.OnlyIn(h.Blocks, p.Blocks)
		pn, pf := evalharness.OnlyIn(p.Blocks, h.Blocks)
		fmt.Fprintf(e.stdout, "  statements covered only by %s: %d (%s)\n", h.Target, hn, hf)
		fmt.Fprintf(e.stdout, "  statements covered only by %s: %d (%s)\n", p.Target, pn, pf)
	}
	return nil
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "NOT met"
}

// kfuzzModuleRoot returns the root directory of the kfuzz module, in which
// the evaluations run.
func kfuzzModuleRoot() (string, error) {
	root, err := gomod.KfuzzRoot(context.Background())
	if err != nil {
		return "", fmt.Errorf("%v: run the evaluations inside the kfuzz module", err)
	}
	return root, nil
}
