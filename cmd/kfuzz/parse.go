package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func init() {
	register(&command{
		name:  "parse",
		usage: "-grammar FILE|NAME [-start NAME] [-tree] [-all] [-kpaths K] [-identity occurrence|nonterminal] [-max-items N] FILE...",
		short: "parse input files with a grammar: accept or reject each, print derivation trees and k-paths",
		run:   runParse,
	})
}

// runParse parses every file (or standard input for "-") with the Earley
// parser. Accepted files print "FILE: ok" with the number of parses if
// there is more than one; rejected ones print "FILE:line:col: ..." on
// stderr and make the exit status 1.
func runParse(e *env, args []string) error {
	c := commands["parse"]
	fs := newFlagSet(e, c)
	spec := fs.String("grammar", "", "grammar `file` or built-in name")
	start := fs.String("start", "", "parse from nonterminal `name` instead of the start symbol")
	tree := fs.Bool("tree", false, "print the derivation tree (the first, if the input is ambiguous)")
	all := fs.Bool("all", false, "with -tree, show synthetic nodes (alternations, sequences, quantifiers) too")
	k := fs.Int("kpaths", 0, "print the l-paths for l = 1..`K` present in any derivation")
	identity := identityFlag(fs)
	maxItems := fs.Int("max-items", 0, "bound on Earley items and links per input (0: the parser's default)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		fs.Usage()
		return errUsage
	}
	if *k < 0 {
		return fmt.Errorf("-kpaths must not be negative")
	}
	gr, err := e.loadGraph(*spec, grammar.WithIdentity(*identity))
	if err != nil {
		return err
	}
	opts := []grammar.ParserOption{grammar.MaxItems(*maxItems)}
	if *start != "" {
		opts = append(opts, grammar.ParseFrom(*start))
	}
	steps := startSlowSteps(e.stderr, fmt.Sprintf("compiling the Earley parser (%d graph nodes)", len(gr.Nodes)))
	p, err := grammar.NewParser(gr, opts...)
	steps.done()
	if err != nil {
		return err
	}
	var pt *grammar.PathTable
	if *k > 0 {
		if pt, err = gr.PathTable(*k); err != nil {
			return err
		}
	}
	rejected := 0
	for _, name := range files {
		data, err := readInput(e, name)
		if err != nil {
			return err
		}
		f, err := p.Parse(data)
		if err != nil {
			printInputError(e.stderr, name, err)
			rejected++
			continue
		}
		switch n, exact := f.Count(); {
		case f.Infinite():
			fmt.Fprintf(e.stdout, "%s: ok (ambiguous: infinitely many parses)\n", name)
		case !exact:
			fmt.Fprintf(e.stdout, "%s: ok (ambiguous: at least 2^64-1 parses, too many to count exactly)\n", name)
		case n > 1:
			fmt.Fprintf(e.stdout, "%s: ok (ambiguous: %d parses)\n", name, n)
		default:
			fmt.Fprintf(e.stdout, "%s: ok\n", name)
		}
		if *tree {
			if err := f.Tree().Format(e.stdout, *all); err != nil {
				return err
			}
		}
		if pt != nil {
			for _, id := range pt.ForestPathIDs(f) {
				fmt.Fprintf(e.stdout, "\t%s\n", pt.Path(id).Format(gr))
			}
		}
	}
	if rejected > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %d inputs rejected", rejected, len(files))}
	}
	return nil
}

// printInputError prints why the input in the named file was rejected: a
// syntax error, which starts with line:col, as name:line:col: ..., any other
// error as name: ....
func printInputError(w io.Writer, name string, err error) {
	if se := (*grammar.SyntaxError)(nil); errors.As(err, &se) {
		fmt.Fprintf(w, "%s:%v\n", name, err)
		return
	}
	fmt.Fprintf(w, "%s: %v\n", name, flagError(err))
}

// flagError returns err in the words of the command line: an Earley item
// limit names the -max-items flag that raises it, not the API option.
func flagError(err error) error {
	if le := (*grammar.ItemLimitError)(nil); errors.As(err, &le) {
		return fmt.Errorf("the parse needs more than %d Earley items and links (reached at offset %d of %d); raise -max-items or shorten the input", le.Limit, le.Offset, le.Len)
	}
	return err
}

// readInput reads the named file, or standard input for "-".
func readInput(e *env, name string) ([]byte, error) {
	if name == "-" {
		return io.ReadAll(e.stdin)
	}
	return os.ReadFile(name)
}
