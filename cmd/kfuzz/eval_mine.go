package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/atomicfile"
	"github.com/seed72891827/kfuzz/internal/cputime"
	"github.com/seed72891827/kfuzz/internal/evalharness"
	"github.com/seed72891827/kfuzz/internal/mineeval"
	"github.com/seed72891827/kfuzz/learn/glade"
	"github.com/seed72891827/kfuzz/learn/symbolic"
)

func init() {
	register(&command{
		name: "eval mine",
		usage: "[-subjects url,grep,lisp,xml,json,expr,while,calc,cgidecode,jsonparse,tinyc] [-configs glade,glade+rec,bubble,symbolic,symbolic+refine]\n" +
			"\t\t[-n 1000] [-seed S] [-seeds 10] [-seed-len 50] [-max-queries N] [-symbolic-max-paths N]\n" +
			"\t\t[-max-items N] [-max-size N] [-o DIR] [-json] [-cover 30s] [-parallel 2]",
		short: "evaluate grammar mining (GLADE, GLADE with the recursion stage, the tree stage, symbolic, refined): precision, recall, F1, queries, time",
		run:   runEvalMine,
	})
}

const evalMineHelp = `For every subject (a reference grammar and a Go oracle written without it) and
every configuration, kfuzz eval mine gives the miner -seeds small inputs of the
subject and the oracle, then scores the mined grammar as GLADE and Arvada do:

  precision: the share of -n inputs generated from the mined grammar that the
  oracle accepts;
  recall: the share of -n inputs generated from the reference grammar that the
  mined grammar's Earley parser accepts (a parse over -max-items counts as a
  rejection and is reported under "limit").

Queries are the oracle calls of the miner (answers from its cache not
counted). Time is the wall time of mining and the CPU time of the whole
process while mining (all its threads; for GLADE it includes making the seeds).

The configurations glade (GLADE as published), glade+rec (with its recursion
stage) and bubble (the tree stage of kfuzz mine glade -trees: bubbling and
merging after Arvada and TreeVada) learn from seeds and the oracle.

The symbolic configuration (kfuzz mine symbolic, STALAGMITE) reads the
parser's code instead of seeds and oracle: it runs on the subjects whose
oracle is a Go parser of the kfuzz module (calc, cgidecode, jsonparse, tinyc) and
is skipped on the others; its queries are the paths it explored, at most
-symbolic-max-paths (default below kfuzz mine symbolic's, so that jsonparse,
which does not saturate, takes seconds and about a gigabyte, not a minute
and 4 GB). Its package is loaded from the kfuzz module, so run it inside the
module. GLADE runs on these subjects too, with seeds from their golden
grammars. symbolic+refine is the symbolic grammar refined against the
subject's oracle, run in-process (kfuzz mine symbolic -refine; for tinyc
also the separation of tokens its lexer would read as one); its queries are
the paths plus the oracle's calls. calc's oracle is calc.Eval, with its division-by-zero error counted
as accepted (a semantic error no grammar excludes) when the whole input is
well formed.

With -cover, the subjects whose oracle is a real Go parser (url: net/url,
json: encoding/json) are also fuzzed: the fuzz test of internal/mineeval
(FuzzURLGrammar, FuzzJSONGrammar) runs for the given time once with the
subject's hand-written reference grammar and once with each mined grammar,
and the statement coverage of the parser package reached by the inputs the
fuzzer kept is compared, as kfuzz eval harness measures it. Run it inside
the kfuzz module.

docs/mine-eval.md holds the results next to GLADE's and Arvada's.`

// mineEvalRow is one line of the table, as -json prints it.
type mineEvalRow struct {
	Subject   string  `json:"subject"`
	Config    string  `json:"config"`
	Seeds     int     `json:"seeds"`
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	F1        float64 `json:"f1"`
	ItemLimit int     `json:"itemLimit"`
	Queries   int64   `json:"queries"`
	Rules     int     `json:"rules"`
	Mining    float64 `json:"miningSeconds"`
	MiningCPU float64 `json:"miningCPUSeconds"` // 0 where the CPU time is not available
	Measuring float64 `json:"measuringSeconds"`
	Error     string  `json:"error,omitempty"`
}

func runEvalMine(e *env, args []string) error {
	c := commands["eval mine"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, evalMineHelp)
		fs.PrintDefaults()
	}
	which := fs.String("subjects", strings.Join(mineeval.Names(), ","), "comma-separated `subjects` to evaluate")
	configs := fs.String("configs", strings.Join(mineConfigNames, ","), "comma-separated `configurations`")
	n := fs.Int("n", mineeval.DefaultN, "inputs generated for precision and for recall each")
	seed := fs.Uint64("seed", 1, "random seed of the seed inputs and the samples")
	seeds := fs.Int("seeds", mineeval.DefaultSeeds, "seed inputs given to the miner")
	seedLen := fs.Int("seed-len", mineeval.DefaultSeedLen, "greatest length of a seed input in bytes")
	maxQueries := fs.Int("max-queries", glade.DefaultMaxQueries, "stop a miner after `N` oracle queries")
	maxPaths := fs.Int("symbolic-max-paths", mineeval.DefaultSymbolicMaxPaths, "stop the symbolic miner after `N` paths")
	maxItems := fs.Int("max-items", mineeval.DefaultMaxItems, "Earley items of one recall parse before it counts as a rejection")
	maxSize := fs.Int("max-size", mineeval.DefaultMaxSize, "derivation tree nodes of a generated input")
	out := fs.String("o", "", "write each mined grammar to `dir`/SUBJECT.CONFIG.bnf")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	cover := fs.Duration("cover", 0, "fuzz the url and json subjects with each grammar for this `time` and compare coverage (0: off)")
	parallel := fs.Int("parallel", 2, "fuzzing worker processes for -cover")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	for _, f := range []struct {
		name  string
		value int
	}{{"n", *n}, {"seeds", *seeds}, {"seed-len", *seedLen}, {"max-queries", *maxQueries}, {"symbolic-max-paths", *maxPaths}, {"max-items", *maxItems},
		{"max-size", *maxSize}, {"parallel", *parallel}} {
		if f.value < 1 {
			return fmt.Errorf("-%s must be positive, not %d", f.name, f.value)
		}
	}
	if *cover < 0 {
		return fmt.Errorf("-cover must not be negative, not %v", *cover)
	}
	var subjects []*mineeval.Subject
	for _, name := range strings.Split(*which, ",") {
		s, err := mineeval.Lookup(strings.TrimSpace(name))
		if err != nil {
			return err
		}
		subjects = append(subjects, s)
	}
	var configNames []string
	for _, name := range strings.Split(*configs, ",") {
		name = strings.TrimSpace(name)
		if !slices.Contains(mineConfigNames, name) {
			return fmt.Errorf("unknown configuration %q (have %s)", name, strings.Join(mineConfigNames, ", "))
		}
		configNames = append(configNames, name)
	}
	root := "" // the kfuzz module, if a symbolic run needs it
	for _, s := range subjects {
		if s.Code != nil && slices.ContainsFunc(configNames, isSymbolicConfig) && root == "" {
			var err error
			if root, err = kfuzzModuleRoot(); err != nil {
				return fmt.Errorf("%v, or leave %s and %s out of -configs", err, mineeval.ConfigSymbolic, mineeval.ConfigSymbolicRefined)
			}
		}
	}
	if *out != "" {
		if err := os.MkdirAll(*out, 0o777); err != nil {
			return err
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	var rows []mineEvalRow
	mined := map[string][]minedGrammar{} // by subject, for -cover
	for _, s := range subjects {
		for _, name := range configNames {
			prog := newProgress(e.stderr, true)
			cfg := mineConfig(name, root, prog, s.Name, *maxQueries, *maxPaths)
			if !cfg.Runs(s) {
				continue
			}
			if cfg.MineCode != nil {
				prog.Step(fmt.Sprintf("eval mine: %s %s: mining from %s.%s", s.Name, name, s.Code.Package, s.Code.Entry), 0)
			} else {
				prog.Step(fmt.Sprintf("eval mine: %s %s: mining from %d seeds", s.Name, name, *seeds), 0)
			}
			cpu0, cpuOK := cputime.ProcessTotal()
			cpu1 := cpu0
			res, err := mineeval.Run(ctx, s, cfg, mineeval.RunOptions{
				Options: mineeval.Options{N: *n, Seed: *seed, MaxSize: *maxSize, MaxItems: *maxItems},
				Seeds:   *seeds, SeedLen: *seedLen,
				Measuring: func() {
					cpu1, _ = cputime.ProcessTotal()
					prog.Step(fmt.Sprintf("eval mine: %s %s: measuring precision and recall on %d inputs each", s.Name, name, *n), 0)
				},
			})
			prog.finish()
			if err != nil {
				return fmt.Errorf("%s: %w", s.Name, err)
			}
			if res.Score == nil { // measuring did not start
				cpu1, _ = cputime.ProcessTotal()
			}
			row := mineEvalRow{Subject: s.Name, Config: name, Seeds: len(res.Seeds), Queries: res.Queries,
				Mining: res.Mining.Seconds(), Measuring: res.Measuring.Seconds()}
			if cpuOK {
				row.MiningCPU = (cpu1 - cpu0).Seconds()
			}
			if res.Grammar != nil {
				row.Rules = len(res.Grammar.Rules)
				mined[s.Name] = append(mined[s.Name], minedGrammar{name, res.Grammar})
				if *out != "" {
					if err := writeMined(*out, s, name, res); err != nil {
						return err
					}
				}
			}
			if res.Score != nil {
				row.Precision, row.Recall, row.F1, row.ItemLimit = res.Score.Precision, res.Score.Recall, res.Score.F1, res.Score.ItemLimit
			}
			if res.Err != nil {
				row.Error = res.Err.Error()
				fmt.Fprintf(e.stderr, "eval mine: %s %s: %v\n", s.Name, name, res.Err)
			}
			rows = append(rows, row)
		}
	}
	var covers []mineCoverRow
	if *cover > 0 {
		var err error
		if covers, err = mineCover(ctx, e, subjects, mined, *cover, *parallel); err != nil {
			return err
		}
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Rows  []mineEvalRow  `json:"rows"`
			Cover []mineCoverRow `json:"cover,omitempty"`
		}{rows, covers})
	}
	if err := printMineEval(e.stdout, rows, *n); err != nil {
		return err
	}
	if len(covers) > 0 {
		return printMineCover(e.stdout, covers, *cover)
	}
	return nil
}

// mineConfigNames are the configurations of kfuzz eval mine.
var mineConfigNames = []string{mineeval.ConfigGLADE, mineeval.ConfigRecursion, mineeval.ConfigTrees, mineeval.ConfigSymbolic, mineeval.ConfigSymbolicRefined}

// isSymbolicConfig reports whether the configuration called name mines the
// subject's code.
func isSymbolicConfig(name string) bool {
	return name == mineeval.ConfigSymbolic || name == mineeval.ConfigSymbolicRefined
}

// mineConfig returns the configuration called name, reporting its progress
// on prog: GLADE's with at most maxQueries oracle queries, or the symbolic
// miner's on the module at root with at most maxPaths paths.
func mineConfig(name, root string, prog *progress, subject string, maxQueries, maxPaths int) mineeval.Config {
	if isSymbolicConfig(name) {
		cfg := symbolic.Config{MaxPaths: maxPaths, Progress: func(st symbolic.Stats) {
			prog.Step(fmt.Sprintf("eval mine: %s %s: %d paths (%d accepting), %d forks", subject, name, st.Paths, st.Accepted, st.Forks), 0)
		}}
		if name == mineeval.ConfigSymbolicRefined {
			return mineeval.SymbolicRefined(root, cfg, symbolic.RefineConfig{Seed: 1})
		}
		return mineeval.Symbolic(root, cfg)
	}
	opts := []glade.Option{glade.WithMaxQueries(maxQueries), glade.WithProgress(mineProgress(prog, subject, name))}
	cfgs := mineeval.Configs(opts...)
	i := slices.IndexFunc(cfgs, func(c mineeval.Config) bool { return c.Name == name })
	return cfgs[i] // names are checked before
}

// A minedGrammar is the grammar one configuration mined.
type minedGrammar struct {
	config  string
	grammar *grammar.Grammar
}

// mineCoverTargets are the fuzz tests of internal/mineeval for the subjects
// whose oracle is a real Go parser, and the package whose coverage counts.
var mineCoverTargets = map[string]struct{ target, coverpkg string }{
	"url":  {"FuzzURLGrammar", "net/url"},
	"json": {"FuzzJSONGrammar", "encoding/json"},
}

// mineCoverRow is the coverage of one fuzzing run, as -json prints it.
type mineCoverRow struct {
	Subject  string  `json:"subject"`
	Grammar  string  `json:"grammar"` // "reference" or a configuration
	Execs    int64   `json:"execs"`
	Corpus   int     `json:"corpus"`
	Covered  int     `json:"covered"`
	Stmts    int     `json:"statements"`
	Coverage float64 `json:"coverage"` // percent
	Failure  string  `json:"failure,omitempty"`
}

// mineCover fuzzes each real-parser subject with its reference grammar and
// with each mined grammar for the same time and measures the statement
// coverage of the parser package.
func mineCover(ctx context.Context, e *env, subjects []*mineeval.Subject, mined map[string][]minedGrammar, d time.Duration, parallel int) ([]mineCoverRow, error) {
	root, err := kfuzzModuleRoot()
	if err != nil {
		return nil, err
	}
	work, err := os.MkdirTemp("", "kfuzz-eval-mine-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	defer os.Unsetenv(mineeval.GrammarEnv)
	var rows []mineCoverRow
	for _, s := range subjects {
		t, ok := mineCoverTargets[s.Name]
		if !ok {
			continue
		}
		dir := filepath.Join(work, s.Name)
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, err
		}
		fmt.Fprintf(e.stderr, "eval mine: building %s of ./internal/mineeval with coverage of %s\n", t.target, t.coverpkg)
		fuzzBin, covBin, err := evalharness.Build(ctx, root, dir, evalharness.Subject{Name: s.Name, Pkg: "./internal/mineeval", Harness: t.target, CoverPkg: t.coverpkg})
		if err != nil {
			return nil, err
		}
		variants := append([]minedGrammar{{config: "reference"}}, mined[s.Name]...)
		for _, v := range variants {
			os.Unsetenv(mineeval.GrammarEnv)
			if v.grammar != nil {
				path := filepath.Join(dir, v.config+".bnf")
				if err := os.WriteFile(path, []byte(v.grammar.String()), 0o666); err != nil {
					return nil, err
				}
				os.Setenv(mineeval.GrammarEnv, path)
			}
			fmt.Fprintf(e.stderr, "eval mine: fuzzing %s with the %s grammar for %v\n", t.target, v.config, d)
			r, err := evalharness.Fuzz(ctx, fuzzBin, covBin, filepath.Join(dir, v.config), t.target, d, parallel)
			if err != nil {
				return nil, fmt.Errorf("%s with the %s grammar: %w", t.target, v.config, err)
			}
			rows = append(rows, mineCoverRow{Subject: s.Name, Grammar: v.config, Execs: r.Execs, Corpus: r.Corpus,
				Covered: r.Covered, Stmts: r.Stmts, Coverage: r.Coverage(), Failure: r.Failure})
		}
	}
	return rows, nil
}

// printMineCover prints the coverage table.
func printMineCover(w io.Writer, rows []mineCoverRow, d time.Duration) error {
	fmt.Fprintf(w, "\nstatement coverage of the parser after fuzzing %v with each grammar (kfuzz eval harness's measure)\n", d)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "subject\tgrammar\texecs\tcorpus\tcovered\tcoverage\tnotes\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%d/%d\t%.1f%%\t%s\t\n", r.Subject, r.Grammar, r.Execs, r.Corpus, r.Covered, r.Stmts, r.Coverage, r.Failure)
	}
	return tw.Flush()
}

// mineProgress reports the miner's phase changes on prog.
func mineProgress(prog *progress, subject, config string) func(glade.Progress) {
	phase, seed := "", -1
	return func(p glade.Progress) {
		if p.Phase == phase && p.Seed == seed {
			return
		}
		phase, seed = p.Phase, p.Seed
		what := p.Phase
		if p.Phase == "regex" || p.Phase == "chars" {
			what = fmt.Sprintf("%s, seed %d/%d", p.Phase, p.Seed+1, p.Seeds)
		}
		prog.Step(fmt.Sprintf("eval mine: %s %s: %s (%d queries, %.1fs)", subject, config, what, p.Queries, p.Elapsed.Seconds()), 0)
	}
}

// writeMined writes the mined grammar, with its seeds and scores in a
// comment, to dir/SUBJECT.CONFIG.bnf, atomically and without overwriting.
func writeMined(dir string, s *mineeval.Subject, config string, res *mineeval.Result) error {
	subject := s.Name
	var b strings.Builder
	if isSymbolicConfig(config) {
		fmt.Fprintf(&b, "# Mined by kfuzz eval mine: subject %s, configuration %s, from the code of %s.%s, %d paths and parser runs.\n",
			subject, config, s.Code.Package, s.Code.Entry, res.Queries)
	} else {
		fmt.Fprintf(&b, "# Mined by kfuzz eval mine: subject %s, configuration %s, %d oracle queries.\n", subject, config, res.Queries)
	}
	if res.Score != nil {
		fmt.Fprintf(&b, "# precision %.3f, recall %.3f, F1 %.3f on %d samples each\n", res.Score.Precision, res.Score.Recall, res.Score.F1, res.Score.N)
	}
	if len(res.Seeds) > 0 {
		b.WriteString("# seeds:\n")
	}
	for _, in := range res.Seeds {
		fmt.Fprintf(&b, "#   %q\n", in)
	}
	b.WriteString("\n")
	b.WriteString(res.Grammar.String())
	path := filepath.Join(dir, subject+"."+config+".bnf")
	err := atomicfile.Write(path, []byte(b.String()), false)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s exists; kfuzz eval mine -o does not overwrite", path)
	}
	return err
}

// printMineEval prints the table and how many subjects reach F1 >= 0.9.
func printMineEval(w io.Writer, rows []mineEvalRow, n int) error {
	fmt.Fprintf(w, "precision and recall on %d generated inputs each; limit = recall parses over -max-items (counted as rejections)\n", n)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "subject\tconfig\tseeds\tprecision\trecall\tF1\tlimit\tqueries\trules\tmining s\tCPU s\tmeasuring s\tF1 >= 0.9\t")
	best := map[string]float64{}
	var order []string
	hasSymbolic := false
	for _, r := range rows {
		hasSymbolic = hasSymbolic || isSymbolicConfig(r.Config)
		if _, ok := best[r.Subject]; !ok {
			order = append(order, r.Subject)
		}
		best[r.Subject] = max(best[r.Subject], r.F1)
		if r.Error != "" {
			fmt.Fprintf(tw, "%s\t%s\t%d\t-\t-\t-\t-\t%d\t-\t%.1f\t%.1f\t-\tfailed\t\n", r.Subject, r.Config, r.Seeds, r.Queries, r.Mining, r.MiningCPU)
			continue
		}
		ok := "no"
		if r.F1 >= 0.9 {
			ok = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.3f\t%.3f\t%.3f\t%d\t%d\t%d\t%.1f\t%.1f\t%.1f\t%s\t\n", r.Subject, r.Config, r.Seeds,
			r.Precision, r.Recall, r.F1, r.ItemLimit, r.Queries, r.Rules, r.Mining, r.MiningCPU, r.Measuring, ok)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	met := 0
	for _, s := range order {
		if best[s] >= 0.9 {
			met++
		}
	}
	fmt.Fprintf(w, "\nsubjects with F1 >= 0.9 in their best configuration: %d of %d (GLADE's goal: 5 of its 7, url to while)\n", met, len(order))
	if hasSymbolic {
		fmt.Fprintf(w, "symbolic: seeds none (it reads the parser's code), queries = paths explored (+ the oracle's calls of symbolic+refine); run only on subjects with code\n")
	}
	return nil
}
