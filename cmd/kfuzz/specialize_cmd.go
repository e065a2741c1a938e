package main

import (
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar/algebra"
)

func init() {
	register(&command{
		name:  "specialize",
		usage: "-grammar FILE|NAME -p 'NAME=<nonterminal> is TEXT' ... -expr EXPR [-o FILE] [-max-rules N] [-no-sharing]",
		short: "specialize a grammar to the inputs that contain, or avoid, patterns (Input Algebras)",
		run:   runSpecialize,
	})
}

func runSpecialize(e *env, args []string) error {
	c := commands["specialize"]
	fs := newFlagSet(e, c)
	spec := fs.String("grammar", "", "base grammar `file` or built-in name")
	var defs listFlag
	fs.Var(&defs, "p", "a pattern `NAME=<nonterminal> is TEXT`, in which <x> is a hole for any <x> (repeatable)")
	exprSrc := fs.String("expr", "", "the `expression` over pattern names: and, or, not, parentheses")
	out := fs.String("o", "", "write the grammar to a new `file` instead of standard output")
	maxRules := fs.Int("max-rules", algebra.DefaultMaxRules, "the most specialized nonterminals (and alternatives of one) to build")
	noSharing := fs.Bool("no-sharing", false, "do not share identical specialized nonterminals (to measure what sharing saves)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 || *exprSrc == "" || len(defs) == 0 {
		fs.Usage()
		return errUsage
	}
	gr, err := e.loadGraph(*spec)
	if err != nil {
		return err
	}
	a, err := algebra.New(gr.Grammar)
	if err != nil {
		return err
	}
	var patterns []*algebra.Pattern
	for _, d := range defs {
		p, err := a.ParsePatternDef(d)
		if err != nil {
			return err
		}
		patterns = append(patterns, p)
	}
	x, err := algebra.ParseExpr(*exprSrc)
	if err != nil {
		return err
	}
	res, err := a.Specialize(patterns, x, &algebra.Options{MaxRules: *maxRules, NoSharing: *noSharing})
	if err != nil {
		return err
	}
	text := res.Grammar.String() + "\n"
	size := fmt.Sprintf("%d rules, %d symbols (base grammar: %d rules, %d symbols); %d specialized nonterminals built, %d shared",
		res.Rules, res.Symbols, res.BaseRules, res.BaseSymbols, res.Built, res.Merged)
	if *out == "" {
		fmt.Fprintf(e.stdout, "# %s\n# %s\n%s", x, size, text)
		return nil
	}
	if err := writeNewFile(*out, []byte("# "+x.String()+"\n"+text)); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s: %s\n", *out, size)
	return nil
}
