package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/internal/atomicfile"
)

func init() {
	register(&command{
		name:  "grammar check",
		usage: "FILE|NAME | -list",
		short: "check a grammar and print its statistics (rules, nodes, k-path counts)",
		run:   runGrammarCheck,
	})
	register(&command{
		name:  "gen",
		usage: "-grammar FILE|NAME [-start NAME] [-n N] [-seed S] [-max-depth D] [-max-size S] [-quote] [-o DIR]",
		short: "generate random inputs from a grammar",
		run:   runGen,
	})
	register(&command{
		name:  "kpath-seeds",
		usage: "-grammar FILE|NAME [-k K] [-close terse|random] [-seed S] [-quote] [-o DIR]",
		short: "generate inputs that together contain every k-path of a grammar (formerly cover-set)",
		run:   runKPathSeeds,
	})
}

func runGrammarCheck(e *env, args []string) error {
	c := commands["grammar check"]
	fs := newFlagSet(e, c)
	list := fs.Bool("list", false, "list the built-in grammars")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *list {
		for _, n := range grammar.BuiltinNames() {
			fmt.Fprintln(e.stdout, n)
		}
		return nil
	}
	if len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	g, gr, err := e.loadGrammarGraph(pos[0])
	if g == nil {
		return err
	}
	for _, p := range g.Problems() {
		fmt.Fprintln(e.stderr, p)
	}
	if err != nil {
		return err
	}
	symbolic := 0
	for _, n := range gr.Nodes {
		if n.Symbolic() {
			symbolic++
		}
	}
	w := e.stdout
	fmt.Fprintf(w, "grammar:     %s\n", pos[0])
	fmt.Fprintf(w, "start:       <%s>\n", g.Start)
	fmt.Fprintf(w, "rules:       %d (%d reachable)\n", len(g.Rules), len(gr.Nonterminals()))
	fmt.Fprintf(w, "nodes:       %d (%d symbolic, %d synthetic)\n", len(gr.Nodes), symbolic, len(gr.Nodes)-symbolic)
	shortest := grammar.Shortest(gr.Root).String()
	if len(shortest) > 60 {
		shortest = fmt.Sprintf("%q... (%d bytes)", shortest[:60], len(shortest))
	} else {
		shortest = strconv.Quote(shortest)
	}
	fmt.Fprintf(w, "shortest:    %s (%d nodes, depth %d)\n", shortest, gr.Root.MinSize, gr.Root.MinDepth)
	for k := 1; k <= 4; k++ {
		fmt.Fprintf(w, "%d-paths:     %d\n", k, gr.CountKPaths(k))
	}
	return nil
}

// output writes inputs one after another to stdout, or one file each to a
// directory.
type output struct {
	e      *env
	dir    string
	quote  bool
	w      *bufio.Writer
	n      int
	prefix string
}

func (o *output) init() error {
	if o.dir != "" {
		return os.MkdirAll(o.dir, 0o777)
	}
	o.w = bufio.NewWriter(o.e.stdout)
	return nil
}

func (o *output) write(input []byte) error {
	o.n++
	if o.dir != "" {
		name := filepath.Join(o.dir, fmt.Sprintf("%s%06d", o.prefix, o.n))
		return writeNewFile(name, input)
	}
	if o.quote {
		o.w.WriteString(strconv.Quote(string(input)))
	} else {
		o.w.Write(input)
	}
	return o.w.WriteByte('\n')
}

func (o *output) close() error {
	if o.w != nil {
		return o.w.Flush()
	}
	return nil
}

// writeNewFile writes data to a new file atomically; it never replaces an
// existing one.
func writeNewFile(name string, data []byte) error {
	err := atomicfile.Write(name, data, false)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%s already exists; not overwriting it", name)
	}
	return err
}

func runGen(e *env, args []string) error {
	c := commands["gen"]
	fs := newFlagSet(e, c)
	spec := fs.String("grammar", "", "grammar `file` or built-in name")
	n := fs.Int("n", 10, "number of inputs")
	seed := fs.Uint64("seed", 1, "random seed; the same seed gives the same inputs")
	maxDepth := fs.Int("max-depth", fuzzharness.DefaultMaxDepth, "maximum derivation depth (nested nonterminals; default: a default harness's)")
	maxSize := fs.Int("max-size", fuzzharness.DefaultMaxSize, "maximum derivation tree size (nodes; default: a default harness's)")
	start := fs.String("start", "", "generate from this nonterminal instead of the start symbol")
	quote := fs.Bool("quote", false, "print each input as a Go-quoted string (one line per input, always)")
	dir := fs.String("o", "", "write one file per input into `dir` instead of printing them")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	var opts []grammar.CompileOption
	if *start != "" {
		opts = append(opts, grammar.WithStart(*start))
	}
	gr, err := e.loadGraph(*spec, opts...)
	if err != nil {
		return err
	}
	gen := grammar.NewGenerator(gr, *seed)
	// By default the bounds of a default harness for the grammar (raised
	// where its smallest input needs more), so that fuzzharness.New(f, g)
	// can run every generated input.
	codec, err := fuzzharness.NewCodec(gr)
	if err != nil {
		return err
	}
	b := codec.Bounds()
	gen.MaxDepth, gen.MaxSize, gen.MaxRepeat = b.MaxDepth, b.MaxSize, min(gen.MaxRepeat, b.MaxRepeat)
	fs.Visit(func(f *flag.Flag) {
		switch f.Name {
		case "max-depth":
			gen.MaxDepth = *maxDepth
		case "max-size":
			gen.MaxSize = *maxSize
		}
	})
	out := &output{e: e, dir: *dir, quote: *quote, prefix: "input-"}
	if err := out.init(); err != nil {
		return err
	}
	for range *n {
		t, err := gen.Generate()
		if err != nil {
			return err
		}
		if err := out.write(t.Bytes()); err != nil {
			return err
		}
	}
	return out.close()
}

func runKPathSeeds(e *env, args []string) error {
	c := commands["kpath-seeds"]
	fs := newFlagSet(e, c)
	spec := fs.String("grammar", "", "grammar `file` or built-in name")
	k := fs.Int("k", 2, "path length k")
	closeOff := fs.String("close", "terse", "how to complete trees: terse (shortest) or random (bounded random)")
	seed := fs.Uint64("seed", 1, "random seed for -close random")
	quote := fs.Bool("quote", false, "print each input as a Go-quoted string")
	dir := fs.String("o", "", "write one file per input into `dir`")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	gr, err := e.loadGraph(*spec)
	if err != nil {
		return err
	}
	var closeFn grammar.CloseFunc
	switch *closeOff {
	case "terse":
		closeFn = grammar.CloseTerse
	case "random":
		closeFn = grammar.NewGenerator(gr, *seed).Complete
	default:
		return fmt.Errorf("-close must be terse or random, not %q", *closeOff)
	}
	trees, err := gr.KPathTrees(*k, closeFn)
	if err != nil {
		return err
	}
	out := &output{e: e, dir: *dir, quote: *quote, prefix: "kpath-"}
	if err := out.init(); err != nil {
		return err
	}
	for _, t := range trees {
		if err := out.write(t.Bytes()); err != nil {
			return err
		}
	}
	if err := out.close(); err != nil {
		return err
	}
	pt, err := gr.PathTable(*k)
	if err != nil {
		return err
	}
	covered, total := pt.Coverage(*k, trees...)
	fmt.Fprintf(e.stderr, "%d inputs contain %d of %d %d-paths\n", len(trees), covered, total, *k)
	return nil
}
