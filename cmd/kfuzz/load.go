package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// loadGrammar reads a grammar named by spec: the name of a built-in grammar
// (see "kfuzz grammar check -list") or a file in the notation or the JSON
// form. A file of the same name as a built-in grammar wins.
func loadGrammar(spec string) (*grammar.Grammar, error) {
	if spec == "" {
		return nil, fmt.Errorf("no grammar given: use -grammar with a file or one of %s", strings.Join(grammar.BuiltinNames(), ", "))
	}
	if _, err := os.Stat(spec); err != nil && !strings.ContainsAny(spec, `/\.`) {
		return grammar.Builtin(spec)
	}
	return grammar.Load(spec)
}

// loadGraph loads a grammar as loadGrammar does and compiles its graph,
// showing progress on standard error if that takes long (see
// env.loadGraph, which commands with an env use).
func loadGraph(spec string, opts ...grammar.CompileOption) (*grammar.Graph, error) {
	return loadGraphTo(os.Stderr, spec, opts...)
}

// loadGraph loads a grammar as loadGrammar does and compiles its graph,
// showing progress on e's standard error if that takes long.
func (e *env) loadGraph(spec string, opts ...grammar.CompileOption) (*grammar.Graph, error) {
	return loadGraphTo(e.stderr, spec, opts...)
}

func loadGraphTo(w io.Writer, spec string, opts ...grammar.CompileOption) (*grammar.Graph, error) {
	steps := startSlowSteps(w, "reading grammar "+spec)
	defer steps.done()
	g, err := loadGrammar(spec)
	if err != nil {
		return nil, err
	}
	steps.next(fmt.Sprintf("checking and compiling grammar %s (%d rules)", spec, len(g.Rules)))
	return grammar.Compile(g, opts...)
}

// slowAfter is how long work runs before slowSteps shows its progress.
var slowAfter = time.Second

// slowSteps shows the steps of work that may take long, such as loading a
// large grammar, as the progress of pipeline steps is shown: silent if the
// work ends within slowAfter, otherwise one line per step from then on (on
// a terminal, a line redrawn in place, ended with the time taken).
type slowSteps struct {
	mu    sync.Mutex
	prog  *progress
	timer *time.Timer
	step  string
	shown bool
	ended bool
}

// startSlowSteps starts the first step of some work, reported on w if it
// runs past slowAfter.
func startSlowSteps(w io.Writer, step string) *slowSteps {
	s := &slowSteps{prog: newProgress(w, true), step: step}
	s.timer = time.AfterFunc(slowAfter, func() {
		s.mu.Lock()
		defer s.mu.Unlock()
		if !s.ended {
			s.shown = true
			s.prog.Step(s.step, 0)
		}
	})
	return s
}

// next starts the next step.
func (s *slowSteps) next(step string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.step = step
	if s.shown {
		s.prog.Step(step, 0)
	}
}

// done ends the work.
func (s *slowSteps) done() {
	s.timer.Stop()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended = true
	if s.shown {
		s.prog.finish()
	}
}

// identityValue is the flag.Value of a k-path node identity.
type identityValue grammar.Identity

func (v *identityValue) String() string {
	if v != nil && grammar.Identity(*v) == grammar.ByNonterminal {
		return "nonterminal"
	}
	return "occurrence"
}

func (v *identityValue) Set(s string) error {
	switch s {
	case "occurrence":
		*v = identityValue(grammar.ByOccurrence)
	case "nonterminal":
		*v = identityValue(grammar.ByNonterminal)
	default:
		return fmt.Errorf("must be occurrence or nonterminal, not %q", s)
	}
	return nil
}

// identityFlag defines the -identity flag: the node identity of k-paths,
// occurrence (TRIBBLE, the default) or nonterminal (ISLa).
func identityFlag(fs *flag.FlagSet) *grammar.Identity {
	v := new(identityValue)
	fs.Var(v, "identity", "node identity for k-paths: occurrence (TRIBBLE) or nonterminal (ISLa)")
	return (*grammar.Identity)(v)
}
