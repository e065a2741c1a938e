package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"

	"github.com/seed72891827/kfuzz/learn/symbolic"
)

func init() {
	register(&command{
		name: "mine symbolic",
		usage: "-entry FUNC [-o FILE] [-f] [-loops N] [-recursion N] [-max-paths N] [-max-states N]\n" +
			"\t\t[-saturation N] [-merge-sites] [-compose] [-depth-cost N] [-refine] [-refine-samples N] [-seed S]\n\t\t[-lexer FUNC -token VAR -lexer-harness FUNC] [-v] PACKAGE",
		short: "mine a grammar from a Go parser's code by symbolic execution (STALAGMITE)",
		run:   runMineSymbolic,
	})
}

const mineSymbolicHelp = `PACKAGE is the parser's package as the go command names it (./internal/p).
FUNC is its entry function: a package-level function taking the input, a
string or a []byte, as its only parameter; it accepts the input when it
returns a nil error as its last result (or true, for a bool). No sample
inputs are needed: the function's code is executed with symbolic input bytes,
shortest inputs first, loops bounded to -loops iterations and recursion to
-recursion activations per call site; the nonterminals of the grammar are the
parser's functions and loops. Exploration stops after -saturation accepting
paths in a row that add nothing to the grammar, or after -max-paths paths.

-compose explores compositionally: a path that returns from a call in a state
another path reached (all but the bytes the call consumed, positions relative
to the input's length) stops there and takes that path's accepted
continuations. -depth-cost N explores by input bytes plus N per frame of
call depth, deep nesting after shallower inputs. Together they make a
parser like internal/subjects/jsonparse saturate (docs/symbolic.md).

A parser with a lexing stage (its parse functions call a tokenization
function that leaves the next token's identifier in a variable) needs
-lexer, the tokenization function or method (nextSym), -token, the field of
its receiver or the package variable holding the token (sym), and
-lexer-harness, a function of the input that runs the lexer once and returns
the token and whether the input was that one token (STALAGMITE's harness).
The lexer is mined once, in isolation (loops up to 5 iterations), one rule
per token; the parser is then mined over tokens.

-refine then narrows the grammar's over-approximations against the parser
itself (STALAGMITE's refinement): inputs generated from the grammar that the
parser rejects are repaired subtree by subtree, and the alternative that made
them invalid is dropped, in the nonterminal or in the context it came from,
when every accepted sample still parses. With a lexing stage, it first
learns which adjacent tokens need white space between them (the parser
rejects them joined, "doa", and accepts them apart) and gives the grammar
the white space there. The parser runs in a small program
built with the go command (through an overlay: nothing is written into the
module).

Constructs the executor does not model are listed with their positions;
paths through them are stopped or their values left untracked.

The grammar is printed on standard output, or written atomically to -o (an
existing file is replaced only with -f).`

func runMineSymbolic(e *env, args []string) error {
	c := commands["mine symbolic"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, mineSymbolicHelp)
		fs.PrintDefaults()
	}
	entry := fs.String("entry", "", "the parser's entry `function` (required)")
	out := fs.String("o", "", "write the grammar to `file` (default: standard output)")
	force := fs.Bool("f", false, "replace an existing -o file")
	loops := fs.Int("loops", symbolic.DefaultLoopBound, "iterations of an input-reading loop explored")
	recursion := fs.Int("recursion", symbolic.DefaultRecursionBound, "activations of a function from one call site on one path")
	maxPaths := fs.Int("max-paths", symbolic.DefaultMaxPaths, "stop after `n` paths")
	maxStates := fs.Int("max-states", symbolic.DefaultMaxStates, "paths waiting to be explored, at most (memory)")
	saturation := fs.Int("saturation", symbolic.DefaultSaturation, "stop after `n` accepting paths in a row that add nothing")
	refine := fs.Bool("refine", false, "refine the grammar against the parser (builds and runs a small program calling FUNC)")
	refineSamples := fs.Int("refine-samples", symbolic.DefaultRefineSamples, "inputs generated per refinement round")
	seed := fs.Uint64("seed", 1, "seed of -refine's sampling")
	merge := fs.Bool("merge-sites", false, "one nonterminal per function, not per call site (over-approximates; see -refine)")
	compose := fs.Bool("compose", false, "explore compositionally: a call's continuation once per way of ending the call")
	depthCost := fs.Int("depth-cost", 0, "order the exploration by input bytes read plus `n` per frame of call depth")
	lexer := fs.String("lexer", "", "the parser's tokenization `function` (a lexing stage)")
	token := fs.String("token", "", "the `variable` (receiver field or package variable) where -lexer leaves the token")
	harness := fs.String("lexer-harness", "", "the `function` that runs -lexer once on its input")
	verbose := fs.Bool("v", false, "report progress on stderr even when it is not a terminal")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *entry == "" || len(pos) != 1 {
		fs.Usage()
		return errUsage
	}
	var lx *symbolic.Lexer
	if *lexer != "" || *token != "" || *harness != "" {
		if *lexer == "" || *token == "" || *harness == "" {
			return fmt.Errorf("-lexer, -token and -lexer-harness go together")
		}
		lx = &symbolic.Lexer{Func: *lexer, Token: *token, Harness: *harness}
	}
	if *out != "" && !*force {
		if err := checkNew(*out); err != nil {
			return err
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(e.stderr, *verbose)
	prog.Step("mine symbolic: exploring "+*entry, 0)
	res, err := symbolic.Mine(ctx, symbolic.Config{
		Package:        pos[0],
		Entry:          *entry,
		LoopBound:      *loops,
		RecursionBound: *recursion,
		MaxPaths:       *maxPaths,
		MaxStates:      *maxStates,
		Saturation:     *saturation,
		Lexer:          lx,
		MergeCallSites: *merge,
		Compose:        *compose,
		DepthCost:      *depthCost,
		Progress: func(st symbolic.Stats) {
			prog.relabel(fmt.Sprintf("%d paths (%d accepting), %d forks", st.Paths, st.Accepted, st.Forks))
		},
	})
	prog.finish()
	if res != nil {
		for _, u := range res.Unsupported {
			fmt.Fprintf(e.stderr, "%s: not modelled: %s\n", u.Pos, u.What)
		}
	}
	if err != nil {
		return err
	}
	if *refine {
		prog.Step("mine symbolic: refining against "+*entry, 0)
		accept, stopOracle, err := parserOracle(ctx, pos[0], *entry)
		if err != nil {
			prog.finish()
			return err
		}
		g, rst, err := symbolic.Refine(ctx, res.Grammar, accept, symbolic.RefineConfig{Seed: *seed, Samples: *refineSamples, Tokens: res.Tokens})
		stopOracle()
		prog.finish()
		if err != nil {
			return err
		}
		res.Grammar = g
		if rst.Separated > 0 {
			fmt.Fprintf(e.stderr, "kfuzz mine symbolic: %d pairs of adjacent tokens need white space between them\n", rst.Separated)
		}
		fmt.Fprintf(e.stderr, "kfuzz mine symbolic: refined in %d rounds: %d of the samples rejected, %d updates, %d parser runs\n",
			rst.Rounds, rst.Rejected, rst.Fixes, rst.Queries)
	}
	if err := e.writeGrammar(res.Grammar, *out, *force); err != nil {
		return err
	}
	st := res.Stats
	stop2 := "explored every path"
	switch {
	case st.Saturated:
		stop2 = fmt.Sprintf("saturated after %d accepting paths adding nothing", *saturation)
	case st.Truncated:
		stop2 = "stopped at -max-paths"
	}
	fmt.Fprintf(e.stderr, "kfuzz mine symbolic: %d rules; %d paths (%d accepting, %d rejecting, %d bounded), %d forks, %.1fs; %s\n",
		len(res.Grammar.Rules), st.Paths, st.Accepted, st.Rejected, st.Terminated, st.Forks, st.Duration.Seconds(), stop2)
	if st.Merged > 0 {
		fmt.Fprintf(e.stderr, "kfuzz mine symbolic: %d paths merged at a call's return, %d accepted traces completed from them\n", st.Merged, st.Spliced)
	}
	if st.Dropped > 0 {
		fmt.Fprintf(e.stderr, "kfuzz mine symbolic: %d paths were not explored: more than -max-states were waiting\n", st.Dropped)
	}
	return nil
}
