package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"

	"github.com/seed72891827/kfuzz/coverage"
	"github.com/seed72891827/kfuzz/internal/pipeline"
)

func init() {
	register(&command{
		name: "cover",
		usage: "-run FuzzX [-pkg PATTERN,...] [-tags TAGS] [-timeout D] [-covermode MODE] [-seeds=false] [-testdata=false]\n" +
			"\t\t[-json] [-profile FILE] [PACKAGE [FILE...]]",
		short: "run a fuzz test's target over inputs and print the functions each input covers",
		run:   runCover,
	})
}

// coverHelp explains the command beyond its flags.
const coverHelp = `PACKAGE (default ".") is the directory or import path of the package that
holds the fuzz test FuzzX, which must run its target through fuzzharness.
The inputs are the FILEs and the files in directories among them: a file
that starts with "go test fuzz v1" is a corpus entry, any other file is a
plain input (its content is the input, as kfuzz gen -o writes). Without
FILEs, they are the harness's seeds (its k-path covering forest and
examples) and the entries of PACKAGE/testdata/fuzz/FuzzX, which plain go
test runs.

The packages named by -pkg (default: PACKAGE) are instrumented, the fuzz
test is built once with go test -c, and its target runs over the inputs in
its own test process, one after the other. Inputs on which it fails,
panics, runs out of time or crashes the process are reported, and the run
goes on. The coverage of the fuzz test's setup and of package
initialization is reported as outside any input.`

// multiFlag collects the values of a flag given several times, each
// possibly a comma-separated list.
type multiFlag []string

func (m *multiFlag) String() string { return strings.Join(*m, ",") }

func (m *multiFlag) Set(v string) error {
	for _, p := range strings.Split(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*m = append(*m, p)
		}
	}
	return nil
}

func runCover(e *env, args []string) error {
	c := commands["cover"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, coverHelp)
		fs.PrintDefaults()
	}
	target := fs.String("run", "", "the fuzz test `FuzzX` (required)")
	var pkgs multiFlag
	fs.Var(&pkgs, "pkg", "measure the packages matching these comma-separated `patterns` (default: the fuzz test's package)")
	bf := addBuildFlags(fs)
	mode := fs.String("covermode", string(coverage.ModeHits), "counter `mode` for the profile: hits, set, count or atomic")
	seeds := fs.Bool("seeds", true, "without FILEs, run the harness's seeds")
	testdata := fs.Bool("testdata", true, "without FILEs, run the entries of testdata/fuzz/FuzzX")
	asJSON := fs.Bool("json", false, "print one JSON document instead of text")
	profile := fs.String("profile", "", "write a Go cover profile of all inputs and the setup to `file` (for go tool cover -func or -html)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *target == "" {
		fmt.Fprintf(e.stderr, "kfuzz cover: -run FuzzX is required\n")
		fs.Usage()
		return errUsage
	}
	if m := coverage.Mode(*mode); !m.Valid() {
		return fmt.Errorf("-covermode must be hits, set, count or atomic, not %q", *mode)
	}
	pkg, files := ".", []string(nil)
	if len(pos) > 0 {
		pkg, files = pos[0], pos[1:]
	}
	if st, err := os.Stat(pkg); err == nil && !st.IsDir() {
		return fmt.Errorf("%s is a file; name the package first: kfuzz cover -run %s PACKAGE %s", pkg, *target, strings.Join(pos, " "))
	}
	cfg, err := bf.config(pkg, *target)
	if err != nil {
		return err
	}
	cfg.Cover, cfg.Mode = pkgs, coverage.Mode(*mode)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := pipeline.Cover(ctx, cfg, pipeline.CoverOptions{Files: files, Seeds: *seeds, Testdata: *testdata})
	if err != nil {
		return err
	}
	if *profile != "" {
		if err := writeProfile(*profile, rep.Total); err != nil {
			return err
		}
	}
	if *asJSON {
		return printCoverJSON(e.stdout, rep)
	}
	printCover(e.stdout, rep)
	return nil
}

// writeProfile writes c as a Go cover profile to a new file.
func writeProfile(name string, c *coverage.Counts) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	err = c.WriteProfile(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing the profile: %w", err)
	}
	return nil
}

// printCover prints the report for humans: each input quoted with its
// outcome and the functions it covered, then what ran outside any input,
// what no input covered, and a summary.
func printCover(w io.Writer, rep *pipeline.Coverage) {
	for _, res := range rep.Results {
		fmt.Fprintf(w, "%s %s %s", res.ID, quoteInput(res), res.Status)
		if res.Message != "" {
			msg := strings.ReplaceAll(strings.TrimSpace(res.Message), "\n", "\n\t# ")
			fmt.Fprintf(w, ": %s", msg)
		}
		fmt.Fprintln(w)
		printFuncs(w, res.Funcs)
	}
	if out := rep.Outside.Funcs(); out.Len() > 0 {
		fmt.Fprintf(w, "outside any input (package initialization, the fuzz test's setup)\n")
		printFuncs(w, out)
	}
	covered := rep.Covered()
	all := coverage.NewFuncSet(rep.Table)
	for i := range rep.Table.Len() {
		all.Add(i)
	}
	if missed := all.Difference(covered); missed.Len() > 0 {
		fmt.Fprintf(w, "covered by no input\n")
		printFuncs(w, missed)
	}
	statuses := map[pipeline.Status]int{}
	var order []pipeline.Status
	for _, res := range rep.Results {
		if statuses[res.Status] == 0 {
			order = append(order, res.Status)
		}
		statuses[res.Status]++
	}
	var counts []string
	for _, s := range order {
		counts = append(counts, fmt.Sprintf("%d %s", statuses[s], s))
	}
	summary := ""
	if len(counts) > 0 {
		summary = " (" + strings.Join(counts, ", ") + ")"
	}
	fmt.Fprintf(w, "%s: %d inputs%s; %d of %d functions covered in %s\n", rep.Target, len(rep.Results), summary,
		covered.Len(), rep.Table.Len(), strings.Join(rep.Table.Packages(), ", "))
}

// quoteInput quotes the input as a Go string; an input the harness did not
// report (a crash) shows as its encoded data, if any.
func quoteInput(res pipeline.Result) string {
	if res.Status == pipeline.StatusCrash {
		return "(unknown: the process died)"
	}
	return strconv.Quote(res.Input)
}

func printFuncs(w io.Writer, s *coverage.FuncSet) {
	for _, name := range s.Names() {
		fmt.Fprintf(w, "\t%s\n", name)
	}
}

// coverJSON is the document that kfuzz cover -json prints.
type coverJSON struct {
	Target    string           `json:"target"`
	Package   string           `json:"package"`  // import path of the fuzz test's package
	Packages  []string         `json:"packages"` // the measured packages
	Functions int              `json:"functions"`
	Inputs    []coverInputJSON `json:"inputs"`
	Outside   []string         `json:"outside"`   // covered outside any input
	Covered   []string         `json:"covered"`   // covered at all
	Uncovered []string         `json:"uncovered"` // covered by no input and not outside
	Processes int              `json:"processes"`
}

type coverInputJSON struct {
	Index      int      `json:"index"`
	ID         string   `json:"id"`
	Input      string   `json:"input"`
	Data       []byte   `json:"data,omitempty"`
	Status     string   `json:"status"`
	Message    string   `json:"message,omitempty"`
	Stack      string   `json:"stack,omitempty"`
	DurationNS int64    `json:"duration_ns"`
	Funcs      []string `json:"funcs"`
}

func printCoverJSON(w io.Writer, rep *pipeline.Coverage) error {
	covered := rep.Covered()
	doc := coverJSON{
		Target: rep.Target, Package: rep.ImportPath, Packages: rep.Table.Packages(), Functions: rep.Table.Len(),
		Inputs: []coverInputJSON{}, Outside: names(rep.Outside.Funcs()), Covered: names(covered), Uncovered: []string{},
		Processes: rep.Processes,
	}
	for _, res := range rep.Results {
		doc.Inputs = append(doc.Inputs, coverInputJSON{
			Index: res.Index, ID: res.ID, Input: res.Input, Data: res.Data, Status: string(res.Status),
			Message: res.Message, Stack: res.Stack, DurationNS: res.Duration.Nanoseconds(), Funcs: names(res.Funcs),
		})
	}
	for i := range rep.Table.Len() {
		if !covered.Has(i) {
			doc.Uncovered = append(doc.Uncovered, rep.Table.Func(i).Name)
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return fmt.Errorf("writing JSON: %w", err)
	}
	return nil
}

// names returns the names in s, never nil.
func names(s *coverage.FuncSet) []string {
	n := s.Names()
	if n == nil {
		return []string{}
	}
	return n
}
