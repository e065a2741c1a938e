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
// showing progress on e's standard error if that takes long. Every command
// that reads a grammar loads it with loadGraph (or loadGrammarGraph), so
// that all report load errors and progress the same way.
func (e *env) loadGraph(spec string, opts ...grammar.CompileOption) (*grammar.Graph, error) {
	_, gr, err := e.loadGrammarGraph(spec, opts...)
	return gr, err
}

// loadGrammarGraph is loadGraph that also returns the grammar, which is
// non-nil when it was read, even if it does not compile.
func (e *env) loadGrammarGraph(spec string, opts ...grammar.CompileOption) (*grammar.Grammar, *grammar.Graph, error) {
	steps := startSlowSteps(e.stderr, "reading grammar "+spec)
	defer steps.done()
	g, err := loadGrammar(spec)
	if err != nil {
		return nil, nil, err
	}
	steps.next(fmt.Sprintf("checking and compiling grammar %s (%d rules)", spec, len(g.Rules)))
	gr, err := grammar.Compile(g, opts...)
	return g, gr, err
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
	timer *time.Timer // nil if shown from the start
	step  string
	shown bool
	ended bool
}

// startSlowSteps starts the first step of some work, reported on w if it
// runs past slowAfter (from the start if slowAfter is 0).
func startSlowSteps(w io.Writer, step string) *slowSteps {
	s := &slowSteps{prog: newProgress(w, true), step: step}
	if slowAfter <= 0 {
		s.shown = true
		s.prog.Step(step, 0)
		return s
	}
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
	if s.timer != nil {
		s.timer.Stop()
	}
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
