package main

import (
	"fmt"
	"os"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

func init() {
	register(&command{
		name:  "kpath",
		usage: "-grammar FILE|NAME [-k K] [-identity occurrence|nonterminal] [-list] [FILE...]",
		short: "count a grammar's k-paths, or measure the k-path coverage of input files",
		run:   runKPath,
	})
}

func runKPath(e *env, args []string) error {
	c := commands["kpath"]
	fs := newFlagSet(e, c)
	spec := fs.String("grammar", "", "grammar `file` or built-in name")
	k := fs.Int("k", 2, "path length k")
	identity := identityFlag(fs)
	list := fs.Bool("list", false, "list the k-paths (of the grammar, or of each file)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if *k < 1 {
		return fmt.Errorf("-k must be at least 1")
	}
	gr, err := e.loadGraph(*spec, grammar.WithIdentity(*identity))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		if !*list {
			fmt.Fprintln(e.stdout, gr.CountKPaths(*k))
			return nil
		}
		pt, err := gr.PathTable(*k)
		if err != nil {
			return err
		}
		lo, hi := pt.Range(*k)
		for id := lo; id < hi; id++ {
			fmt.Fprintln(e.stdout, pt.Path(id).Format(gr))
		}
		return nil
	}
	pt, err := gr.PathTable(*k)
	if err != nil {
		return err
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		return err
	}
	lo, hi := pt.Range(*k)
	total := hi - lo
	union := pt.NewPathSet()
	rejected := 0
	for _, name := range files {
		data, err := os.ReadFile(name)
		if err != nil {
			return err
		}
		f, err := p.Parse(data)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", name, err)
			rejected++
			continue
		}
		s := pt.ForestPaths(f)
		union.Union(s)
		n := s.CountRange(lo, hi)
		fmt.Fprintf(e.stdout, "%s: %d/%d %d-paths (%.1f%%)\n", name, n, total, *k, percent(n, total))
		if *list {
			for _, id := range s.IDs() {
				if id >= lo && id < hi {
					fmt.Fprintf(e.stdout, "\t%s\n", pt.Path(id).Format(gr))
				}
			}
		}
	}
	if len(files) > 1 {
		n := union.CountRange(lo, hi)
		fmt.Fprintf(e.stdout, "all: %d/%d %d-paths (%.1f%%)\n", n, total, *k, percent(n, total))
	}
	if rejected > 0 {
		return &exitError{code: 1, err: fmt.Errorf("%d of %d files are not in the language", rejected, len(files))}
	}
	return nil
}

func percent(n, total int) float64 {
	if total == 0 {
		return 0
	}
	return 100 * float64(n) / float64(total)
}
