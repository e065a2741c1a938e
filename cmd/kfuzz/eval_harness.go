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
		usage: "[-time 30s] [-parallel N] [-examples calc,json] [-runs N] [-repair-budget D] [-keep DIR]",
		short: "compare grammar-aware fuzzing through fuzzharness with plain string fuzzing on the examples, and constraint repair with skipping",
		run:   runEvalHarness,
	})
}

func runEvalHarness(e *env, args []string) error {
	c := commands["eval harness"]
	fs := newFlagSet(e, c)
	fuzzTime := fs.Duration("time", 30*time.Second, "how long to fuzz each fuzz test")
	parallel := fs.Int("parallel", 2, "fuzzing worker processes")
	which := fs.String("examples", "calc,json", "comma-separated examples to evaluate: "+subjectNames()+", constraints for "+constraintNames()+", or overhead for "+overheadNames())
	runs := fs.Int("runs", 1, "how many times to fuzz each example (median and spread over the runs)")
	budget := fs.Duration("repair-budget", 0, "the CPU time one input's repair may take in the constraint examples (0: the harness's default, fuzzharness.DefaultRepairBudget)")
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
	if *runs < 1 {
		return fmt.Errorf("-runs %d: want at least 1", *runs)
	}
	if *budget < 0 {
		return fmt.Errorf("-repair-budget %v: want a duration of at least 0", *budget)
	}
	wanted := map[string]bool{}
	for _, n := range strings.Split(*which, ",") {
		if n = strings.TrimSpace(n); n == "constraints" || n == "overhead" {
			for _, sub := range evalharness.Subjects {
				if n == "constraints" && sub.Constrained() || n == "overhead" && sub.Overhead {
					wanted[sub.Name] = true
				}
			}
			continue
		}
		wanted[n] = true
	}
	var subjects []evalharness.Subject
	for _, sub := range evalharness.Subjects {
		if wanted[sub.Name] {
			subjects = append(subjects, sub)
			delete(wanted, sub.Name)
		}
	}
	for n := range wanted {
		return fmt.Errorf("unknown example %q (have %s)", n, subjectNames())
	}
	opts := evalharness.Options{FuzzTime: *fuzzTime, Parallel: *parallel, Runs: *runs, RepairBudget: *budget}
	results, err := evalharness.Compare(ctx, root, work, subjects, opts, e.stderr)
	if err != nil {
		return err
	}

	tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "example\trun\tfuzz test\texecs\texecs/s\tCPU s\texecs/CPU s\tvalid/CPU s\tinvalid\trepair p50/p99/max\tover budget\tcorpus\tcovered\tcoverage\t%s\n", "notes")
	for _, res := range results {
		runs := []*evalharness.Run{res.Harness, res.Plain}
		if res.Subject.Constrained() {
			runs = []*evalharness.Run{res.Plain, res.Harness, res.Skip, res.Repair}
		}
		for _, r := range runs {
			valid, invalid, times, over := "-", "-", "-", "-"
			if r.Stats != nil {
				valid = fmt.Sprintf("%.0f", r.ValidCPURate())
				invalid = fmt.Sprint(r.Stats.Invalid)
				if r.Stats.RepairMax > 0 {
					times = fmt.Sprintf("%v/%v/%v", r.Stats.RepairP50, r.Stats.RepairP99, r.Stats.RepairMax)
					over = fmt.Sprint(r.Stats.OverBudget)
				}
			}
			fmt.Fprintf(tw, "%s\t%d\t%s\t%d\t%.0f\t%.1f\t%.0f\t%s\t%s\t%s\t%s\t%d\t%d/%d\t%.1f%%\t%s\n", res.Subject.Name, res.RunIndex+1, r.Target,
				r.Execs, r.Rate(), r.CPU.Seconds(), r.CPURate(), valid, invalid, times, over, r.Corpus, r.Covered, r.Stmts, r.Coverage(), r.Failure)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(e.stdout)
	for _, sum := range evalharness.SummarizeConstraints(results) {
		goal := 1.0
		if sum.Subject.Name == "scriptc" {
			goal = 5
		}
		fmt.Fprintf(e.stdout, "%s (%d runs, median [min, max]): valid execs per CPU second, skip %v, repair %v; same-run ratio repair/skip %v (goal >= %.0f: %s)\n",
			sum.Subject.Name, sum.Runs, sum.SkipValid, sum.RepairValid, sum.Ratio, goal, verdict(sum.Ratio.Median >= goal))
		fmt.Fprintf(e.stdout, "  ceiling of the ratio if a repaired execution cost no more than a grammar-only one: %v\n", sum.Ceiling)
		cov := sum.Coverage
		fmt.Fprintf(e.stdout, "  coverage of %s in %%: plain %v, grammar %v, skip %v, repair %v (repair above skip and plain: %s)\n",
			sum.Subject.CoverPkg, cov[0], cov[1], cov[2], cov[3], verdict(cov[3].Median > cov[2].Median && cov[3].Median > cov[0].Median))
		fmt.Fprintf(e.stdout, "  repair time: greatest p99 %v, greatest max %v; %d repairs over the budget, skipped\n",
			sum.RepairP99, sum.RepairMax, sum.OverBudget)
	}
	for _, res := range results {
		if !res.Subject.Constrained() {
			continue
		}
		for _, other := range []*evalharness.Run{res.Skip, res.Plain} {
			rn, rf := evalharness.OnlyIn(res.Repair.Blocks, other.Blocks)
			on, of := evalharness.OnlyIn(other.Blocks, res.Repair.Blocks)
			fmt.Fprintf(e.stdout, "%s run %d: statements covered only by %s: %d (%s); only by %s: %d (%s)\n",
				res.Subject.Name, res.RunIndex+1, res.Repair.Target, rn, rf, other.Target, on, of)
		}
	}
	overhead := map[string][]float64{} // subject: same-run ratios of execs per CPU second
	for _, res := range results {
		if !res.Subject.Overhead {
			continue
		}
		if h, p := res.Harness, res.Plain; p.CPURate() > 0 {
			overhead[res.Subject.Name] = append(overhead[res.Subject.Name], h.CPURate()/p.CPURate())
		}
	}
	for _, sub := range subjects {
		if xs := overhead[sub.Name]; len(xs) > 0 {
			sp := evalharness.SpreadOf(xs)
			fmt.Fprintf(e.stdout, "%s (%d runs): the harness's own cost, targets that only read their input: execs per CPU second %.0f%% [%.0f%%, %.0f%%] of plain (goal >= 90%%: %s)\n",
				sub.Name, len(xs), 100*sp.Median, 100*sp.Min, 100*sp.Max, verdict(sp.Median >= 0.9))
		}
	}
	for _, res := range results {
		if res.Subject.Constrained() || res.Subject.Overhead {
			continue
		}
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

// subjectNames lists the examples of kfuzz eval harness.
func subjectNames() string { return namesOf(func(evalharness.Subject) bool { return true }) }

// constraintNames lists the constraint examples.
func constraintNames() string { return namesOf(evalharness.Subject.Constrained) }

// overheadNames lists the pairs that measure the harness's own cost.
func overheadNames() string {
	return namesOf(func(s evalharness.Subject) bool { return s.Overhead })
}

// namesOf lists the subjects for which keep is true.
func namesOf(keep func(evalharness.Subject) bool) string {
	var names []string
	for _, s := range evalharness.Subjects {
		if keep(s) {
			names = append(names, s.Name)
		}
	}
	return strings.Join(names, ", ")
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
