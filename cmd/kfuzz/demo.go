package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"

	"github.com/seed72891827/kfuzz/internal/pipeline"
)

func init() {
	register(&command{
		name:  "demo",
		usage: "[-n N] [-seeds N] [-seed S] [-keep DIR] [-v]",
		short: "show kfuzz at work: learn what reaches the calc example's functions and seed its distributive law",
		run:   runDemo,
	})
}

const demoHelp = `kfuzz demo runs the whole pipeline on the calc example, which is built into
kfuzz: it writes the example as a module of its own into a temporary
directory (or -keep DIR), learns which inputs reach which of its functions
(kfuzz learn), prints the rules for its distributive law, generates inputs
from them and adds those that really reach it to the module's
testdata/fuzz/FuzzCalc (kfuzz seed). The repository is not modified.

The module requires kfuzz: run from the kfuzz repository (go run
./cmd/kfuzz demo), it uses that source through a replace directive; a kfuzz
installed with go install ...@version uses that version from the module
proxy; elsewhere, a kfuzz built from source that is still where it was
compiled uses that source. Otherwise the demo says to run it in the
repository.`

// runDemo runs pipeline.RunDemo with the flags.
func runDemo(e *env, args []string) error {
	c := commands["demo"]
	fs := newFlagSet(e, c)
	fs.Usage = func() {
		fmt.Fprintf(e.stderr, "usage: kfuzz %s %s\n\n%s\n\n%s\n\nFlags:\n", c.name, c.usage, c.short, demoHelp)
		fs.PrintDefaults()
	}
	n := fs.Int("n", pipeline.DefaultN, "random training inputs, and as many test inputs")
	seeds := fs.Int("seeds", 5, "inputs wanted that reach the distributive law")
	seed := fs.Uint64("seed", 1, "random seed")
	keep := fs.String("keep", "", "write the module into this new `directory` and keep it")
	verbose := fs.Bool("v", false, "report each step on stderr even when it is not a terminal")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	if *n < 1 || *seeds < 1 {
		return fmt.Errorf("-n and -seeds must be positive")
	}
	dir := *keep
	if dir != "" {
		if abs, err := filepath.Abs(dir); err == nil {
			dir = abs
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := newProgress(e.stderr, *verbose)
	defer prog.finish()
	_, err := pipeline.RunDemo(ctx, pipeline.DemoOptions{
		Out: e.stdout, Progress: prog, Dir: dir, N: *n, Seed: *seed, Seeds: *seeds,
	})
	return err
}
