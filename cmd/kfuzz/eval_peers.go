package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"time"

	"github.com/seed72891827/kfuzz/internal/atomicfile"
	"github.com/seed72891827/kfuzz/internal/evalpeers"
)

func init() {
	register(&command{
		name:  "eval peers",
		usage: "[-time 20s] [-runs 3] [-parallel 2] [-subjects calc,scriptc,json,csv] [-tools go-fuzz,...] [-svg FILE] [-keep DIR]",
		short: "fuzz copies of the example parsers with kfuzz and its peers (go test -fuzz, libFuzzer, go-abnf, rapid, go-fuzz-headers): coverage over time and seeded faults found",
		run:   runEvalPeers,
	})
}

func runEvalPeers(e *env, args []string) error {
	c := commands["eval peers"]
	fs := newFlagSet(e, c)
	budget := fs.Duration("time", 20*time.Second, "how long each run fuzzes")
	runs := fs.Int("runs", 3, "runs per subject and tool")
	parallel := fs.Int("parallel", 2, "fuzzing workers of go test -fuzz")
	var subjectNames, toolNames []string
	for _, s := range evalpeers.Subjects {
		subjectNames = append(subjectNames, s.Name)
	}
	for _, t := range evalpeers.Tools {
		toolNames = append(toolNames, t.Name)
	}
	which := fs.String("subjects", strings.Join(subjectNames, ","), "comma-separated subjects to evaluate")
	tools := fs.String("tools", strings.Join(toolNames, ","), "comma-separated tools to run")
	svg := fs.String("svg", "", "write the coverage plot as SVG to `file` (never replacing one)")
	keep := fs.String("keep", "", "keep the scratch modules, binaries and corpora in `dir` instead of a temporary directory")
	if pos, err := parseFlags(fs, args); err != nil {
		return err
	} else if len(pos) != 0 {
		fs.Usage()
		return errUsage
	}
	cfg := evalpeers.Config{Budget: *budget, Runs: *runs, Parallel: *parallel, Log: e.stderr}
	for _, n := range strings.Split(*which, ",") {
		s := evalpeers.SubjectNamed(strings.TrimSpace(n))
		if s == nil {
			return fmt.Errorf("unknown subject %q (have %s)", n, strings.Join(subjectNames, ", "))
		}
		cfg.Subjects = append(cfg.Subjects, *s)
	}
	for _, n := range strings.Split(*tools, ",") {
		found := false
		for _, t := range evalpeers.Tools {
			if t.Name == strings.TrimSpace(n) {
				cfg.Tools, found = append(cfg.Tools, t), true
			}
		}
		if !found {
			return fmt.Errorf("unknown tool %q (have %s)", n, strings.Join(toolNames, ", "))
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	root, err := kfuzzModuleRoot()
	if err != nil {
		return err
	}
	cfg.Root = root
	if cfg.Work = *keep; cfg.Work == "" {
		if cfg.Work, err = os.MkdirTemp("", "kfuzz-peers-"); err != nil {
			return err
		}
		defer os.RemoveAll(cfg.Work)
	} else if err := os.MkdirAll(cfg.Work, 0o777); err != nil {
		return err
	}
	res, err := evalpeers.Evaluate(ctx, cfg)
	if err != nil {
		return err
	}
	if err := res.WriteMarkdown(e.stdout); err != nil {
		return err
	}
	if *svg != "" {
		var b strings.Builder
		if err := res.WriteSVG(&b); err != nil {
			return err
		}
		if err := atomicfile.Write(*svg, []byte(b.String()), false); err != nil {
			return err
		}
		fmt.Fprintf(e.stderr, "eval peers: wrote %s\n", *svg)
	}
	return nil
}
