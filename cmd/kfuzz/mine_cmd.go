package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/glade"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

func init() {
	register(&command{
		name: "mine glade",
		usage: "-seeds DIR (-oracle 'CMD' | [PACKAGE] -fuzz FuzzX [-tags TAGS]) [-o FILE] [-f] [-max-queries N]\n" +
			"\t\t[-no-recursion] [-trees] [-no-chars] [-no-extra] [-timeout D] [-batch N] [-v]",
		short: "synthesize a grammar from valid inputs and a membership oracle (GLADE)",
		run:   runMineGlade,
	})
}

const mineGladeHelp = `The seeds are the files in DIR (not its subdirectories), each one valid
input. The oracle is a shell command run once per query with sh -c: it
accepts an input when it exits with status 0. The input is on its standard
input, or, if the command contains {}, in a temporary file whose name
replaces {}. A query that exceeds -timeout is a rejection.

` + targetHelp + `

The grammar is printed on standard output, or written atomically to -o (an
existing file is replaced only with -f). It loads back with kfuzz grammar
check, and fuzzharness.New and kfuzz gen take it. Progress (phase, queries,
time) goes to stderr on a terminal, or with -v; a summary always does.`

func runMineGlade(e *env, args []string) error {
	c := commands["mine glade"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, mineGladeHelp)
		fs.PrintDefaults()
	}
	seedDir := fs.String("seeds", "", "the `directory` of seed inputs (required)")
	cmdline := fs.String("oracle", "", "the oracle `command` (required unless -fuzz)")
	out := fs.String("o", "", "write the grammar to `file` (default: standard output)")
	force := fs.Bool("f", false, "replace an existing -o file")
	maxQ := fs.Int("max-queries", glade.DefaultMaxQueries, "stop with an error after `n` oracle queries")
	noRec := fs.Bool("no-recursion", false, "GLADE alone: skip the recursion stage")
	trees := fs.Bool("trees", false, "the tree stage (bubbling and merging, after Arvada and TreeVada) instead of GLADE's phases")
	noChars := fs.Bool("no-chars", false, "skip character generalization")
	noExtra := fs.Bool("no-extra", false, "check in the seed's contexts only, as the paper does (no extra contexts)")
	timeout := fs.Duration("timeout", 10*time.Second, "the longest one oracle run may take")
	batch := fs.Int("batch", glade.DefaultBatch, "candidates checked per batch of parallel queries")
	verbose := fs.Bool("v", false, "report progress on stderr even when it is not a terminal")
	tf := addTargetFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *seedDir == "" || (*cmdline == "") == !tf.given() || (len(pos) > 0 && !tf.given()) {
		if *cmdline != "" && tf.given() {
			fmt.Fprintf(e.stderr, "kfuzz mine glade: -oracle and -fuzz exclude each other\n")
		}
		fs.Usage()
		return errUsage
	}
	if *maxQ < 1 {
		return fmt.Errorf("-max-queries must be positive, not %d", *maxQ)
	}
	if *out != "" && !*force {
		if err := checkNew(*out); err != nil {
			return err
		}
	}
	seeds, err := readSeeds(*seedDir)
	if err != nil {
		return err
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(e.stderr, *verbose)
	var (
		o interface {
			oracle.Oracle
			Stats() oracle.Stats
		}
		target *targetOracle
	)
	if tf.given() {
		prog.Step("building "+*tf.fuzz+" as the oracle", 0)
		if target, err = tf.open(ctx, "mine glade", pos, *timeout); err != nil {
			prog.finish()
			return err
		}
		defer target.Close()
		o = target
	} else {
		c := oracle.Command("sh", "-c", *cmdline)
		c.Timeout = *timeout
		o = c
	}
	phase, seed := "", -1
	res, err := glade.Synthesize(ctx, seeds, o,
		glade.WithMaxQueries(*maxQ),
		glade.WithRecursion(!*noRec),
		glade.WithTrees(*trees),
		glade.WithCharGeneralization(!*noChars),
		glade.WithExtraContexts(!*noExtra),
		glade.WithBatch(*batch),
		glade.WithProgress(func(p glade.Progress) {
			if target != nil {
				target.flush(prog)
			}
			if p.Phase != phase || p.Seed != seed {
				phase, seed = p.Phase, p.Seed
				name := "glade: " + p.Phase
				if p.Phase == "regex" || p.Phase == "chars" {
					name += fmt.Sprintf(", seed %d/%d", p.Seed+1, p.Seeds)
				}
				prog.Step(name, 0)
			}
			prog.relabel(fmt.Sprintf("%d steps, %d queries, %d cache hits, %.1fs", p.Steps, p.Queries, p.CacheHits, p.Elapsed.Seconds()))
		}))
	prog.finish()
	if target != nil {
		target.flush(prog)
	}
	if err != nil {
		return err
	}
	if err := e.writeGrammar(res.Grammar, *out, *force); err != nil {
		return err
	}
	st := res.Stats
	fmt.Fprintf(e.stderr, "kfuzz mine glade: %d rules from %d of %d seeds; %d queries (%d cache hits, %d timeouts), %.1fs\n",
		st.Rules, st.SeedsUsed, st.Seeds, st.Queries, st.CacheHits, o.Stats().Timeouts, st.Duration.Seconds())
	if target != nil {
		fmt.Fprintf(e.stderr, "kfuzz mine glade: %s\n", target.summary())
	}
	return nil
}

// writeGrammar prints a mined grammar on standard output, or writes it
// atomically to out (replacing an existing file only with replace).
func (e *env) writeGrammar(g *grammar.Grammar, out string, replace bool) error {
	text := g.String()
	if out == "" {
		_, err := fmt.Fprint(e.stdout, text)
		return err
	}
	return writeOutput(out, []byte(text), replace)
}

// relabel shows detail after the current step's name on a terminal, at most
// ten times a second.
func (p *progress) relabel(detail string) {
	if !p.tty || time.Since(p.drawn) < 100*time.Millisecond {
		return
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s: %s", p.name, detail)
	p.drawn, p.open = time.Now(), true
}

// readSeeds reads the regular files of dir, in name order.
func readSeeds(dir string) ([][]byte, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var seeds [][]byte
	for _, ent := range ents {
		if !ent.Type().IsRegular() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, ent.Name()))
		if err != nil {
			return nil, err
		}
		seeds = append(seeds, b)
	}
	if len(seeds) == 0 {
		return nil, fmt.Errorf("no seed files in %s", dir)
	}
	return seeds, nil
}
