package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/learn"
)

func init() {
	register(&command{
		name: "seed",
		usage: "-target FUNC [-fuzz FuzzX] [-model FILE] [-cover PATTERN,...] [-n N] [-seed S] [-o DIR] [-dry-run] [-tags TAGS] [-timeout D]\n" +
			"\t\t[-json] [-v] [PACKAGE]",
		short: "generate inputs that reach a function and add those that do to the seed corpus",
		run:   runSeed,
	})
}

const seedHelp = `kfuzz seed generates N inputs from the rules that the model (written by kfuzz
learn) holds for the function FUNC, runs the fuzz test's target over them
with coverage instrumentation, and adds those that really reach FUNC to the
fuzz test's seed corpus, PACKAGE/testdata/fuzz/FuzzX (or -o DIR), encoded for
its harness so that go test runs them. Entries are written atomically and
never replace a file; an entry already there is not written again.

N is the number of entries wanted: inputs are generated and measured in
batches of N until N reached FUNC or five batches are done. No more than N
entries are written; if fewer inputs reached FUNC, the command says so.

FUNC is a function's full name (import/path.(*T).Method) or a suffix of it
that names one function, such as distribute or calc.(*simplifier).distribute.
The model is -model FILE, or kfuzz-FuzzX.model.json; FuzzX defaults to the
model's fuzz test, and PACKAGE to the package it was learned in. The packages
measured, the build tags and the time limit are those the model was learned
with (kfuzz learn -cover, -tags, -timeout), unless -cover, -tags or -timeout
are given. The command fails if no input reaches FUNC.`

func runSeed(e *env, args []string) error {
	c := commands["seed"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, seedHelp)
		fs.PrintDefaults()
	}
	fn := fs.String("target", "", "the function `FUNC` to reach (required)")
	target := fs.String("fuzz", "", "the fuzz test `FuzzX` (default: the model's)")
	modelPath := fs.String("model", "", "the model `file` (default kfuzz-FuzzX.model.json)")
	n := fs.Int("n", pipeline.DefaultSeeds, "the number of entries wanted: inputs that reach FUNC")
	seed := fs.Uint64("seed", 1, "random seed")
	dir := fs.String("o", "", "add the entries to this corpus `directory` (default PACKAGE/testdata/fuzz/FuzzX)")
	dry := fs.Bool("dry-run", false, "generate and measure, but write nothing")
	var cover multiFlag
	fs.Var(&cover, "cover", "measure the packages matching these comma-separated `patterns` (default: those the model was learned on)")
	bf := addBuildFlags(fs)
	asJSON := fs.Bool("json", false, "print JSON instead of text")
	verbose := fs.Bool("v", false, "list the inputs that missed the function too, and report each step on stderr")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *fn == "" || len(pos) > 1 || (*target == "" && *modelPath == "") {
		switch {
		case *fn == "":
			fmt.Fprintf(e.stderr, "kfuzz seed: -target FUNC is required\n")
		case *target == "" && *modelPath == "":
			fmt.Fprintf(e.stderr, "kfuzz seed: name the fuzz test (-fuzz FuzzX) or the model (-model FILE)\n")
		}
		fs.Usage()
		return errUsage
	}
	if *n < 1 {
		return fmt.Errorf("-n must be positive, not %d", *n)
	}
	if *modelPath == "" {
		*modelPath = "kfuzz-" + *target + ".model.json"
	}
	mf, _, err := pipeline.LoadModelFile(*modelPath)
	if err != nil {
		return err
	}
	if *target == "" {
		*target = mf.Target
	} else if *target != mf.Target {
		return fmt.Errorf("%s was learned for %s, not %s", *modelPath, mf.Target, *target)
	}
	name, err := pipeline.ResolveFunc(mf.Model, *fn)
	if err != nil {
		return err
	}
	pkg := "."
	if len(pos) == 1 {
		pkg = pos[0]
	} else if st, err := os.Stat(mf.Dir); err == nil && st.IsDir() && mf.Dir != "" {
		pkg = mf.Dir
	}
	cfg, err := bf.config(pkg, *target)
	if err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	cfg.Cover = cover
	if !set["cover"] {
		cfg.Cover = mf.Measured
	}
	if !set["tags"] && mf.BuildFlags != nil {
		cfg.BuildFlags = mf.BuildFlags
	}
	if !set["timeout"] && mf.Timeout > 0 {
		cfg.Timeout = mf.Timeout
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(e.stderr, *verbose)
	defer prog.finish()
	s, err := openSession(ctx, prog, cfg, "building "+*target+" with coverage instrumentation")
	if err != nil {
		return err
	}
	defer s.Close()
	seeds, err := s.Seeds(ctx, mf.Model, name, pipeline.SeedOptions{N: *n, Seed: *seed})
	if err != nil {
		return err
	}
	prog.finish()
	corpusDir := *dir
	if corpusDir == "" {
		corpusDir = s.TestdataDir()
	}
	if !*dry {
		if err := pipeline.WriteSeeds(corpusDir, seeds); err != nil {
			return err
		}
	}
	reached := 0
	for _, sd := range seeds {
		if sd.Reached {
			reached++
		}
	}
	if *asJSON {
		err = printSeedsJSON(e.stdout, name, corpusDir, *dry, seeds, mf.Model)
	} else {
		printSeeds(e.stdout, name, corpusDir, *n, *dry, *verbose, seeds, mf.Model)
	}
	if err == nil && reached == 0 {
		return &exitError{code: 1, err: fmt.Errorf("none of the %d inputs reached %s", len(seeds), name)}
	}
	return err
}

// printSeeds prints the generated inputs that reached the function (all
// of them if verbose) and where they were written.
func printSeeds(w io.Writer, fn, dir string, want int, dry, verbose bool, seeds []pipeline.Seed, m *learn.Model) {
	reached, added := 0, 0
	for _, sd := range seeds {
		mark := "-"
		if sd.Reached {
			mark = "+"
			reached++
		} else if !verbose {
			continue
		}
		fmt.Fprintf(w, "%s %-40s", mark, strconv.Quote(sd.Text))
		switch {
		case sd.Name != "" && sd.Added:
			fmt.Fprintf(w, " %s (new)", sd.Name)
			added++
		case sd.Name != "":
			fmt.Fprintf(w, " %s (already there)", sd.Name)
		case !sd.Reached:
			fmt.Fprintf(w, " did not reach it (%s)", sd.Status)
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintf(w, "%d of %d generated inputs reached %s\n", reached, len(seeds), fn)
	if reached < want {
		fmt.Fprintf(w, "fewer than the %d wanted: the model's rules gave no more distinct inputs that reach it within %d batches\n"+
			"(try another -seed, or a model learned with more inputs or -refine rounds)\n", want, pipeline.DefaultBatches)
	}
	switch {
	case dry:
		fmt.Fprintf(w, "-dry-run: nothing written\n")
	case reached > 0:
		fmt.Fprintf(w, "added %d entries to %s (%d already there)\n", added, dir, reached-added)
	}
	if f := m.Func(fn); f != nil && len(f.Rules) > 0 {
		fmt.Fprintf(w, "\nthe rules the inputs were generated from:\n")
		for _, r := range f.Rules {
			fmt.Fprintf(w, "%s\n", indent(r.Format(m.Table)))
		}
	}
}

func indent(s string) string { return "  " + strings.ReplaceAll(s, "\n", "\n  ") }

type seedJSON struct {
	Input   string `json:"input"`
	Data    []byte `json:"data"`
	Status  string `json:"status"`
	Message string `json:"message,omitempty"`
	Reached bool   `json:"reached"`
	Rule    string `json:"rule,omitempty"`
	Entry   string `json:"entry,omitempty"`
	Added   bool   `json:"added"`
}

type seedsJSON struct {
	Function string     `json:"function"`
	Corpus   string     `json:"corpus"`
	DryRun   bool       `json:"dry_run"`
	Reached  int        `json:"reached"`
	Inputs   []seedJSON `json:"inputs"`
}

func printSeedsJSON(w io.Writer, fn, dir string, dry bool, seeds []pipeline.Seed, m *learn.Model) error {
	doc := seedsJSON{Function: fn, Corpus: dir, DryRun: dry, Inputs: []seedJSON{}}
	for _, sd := range seeds {
		sj := seedJSON{Input: sd.Text, Data: sd.Data, Status: string(sd.Status), Message: sd.Message, Reached: sd.Reached, Entry: sd.Name, Added: sd.Added}
		if sd.Rule != nil {
			sj.Rule = sd.Rule.Format(m.Table)
		}
		if sd.Reached {
			doc.Reached++
		}
		doc.Inputs = append(doc.Inputs, sj)
	}
	return writeJSON(w, doc)
}
