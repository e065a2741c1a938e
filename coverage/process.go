package coverage

import (
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/seed72891827/kfuzz/coverage/rt"
)

// ErrNotInstrumented is returned (possibly wrapped) when coverage is asked
// for but the code to measure was not built with instrumentation.
var ErrNotInstrumented = errors.New("coverage: not instrumented: build or test with the overlay that instrument.BuildOverlay (package github.com/seed72891827/kfuzz/coverage/instrument) writes, e.g. go test -overlay=FILE (kfuzz cover does this), and never with -cover")

// A Process gives access to the counters of the instrumented packages linked
// into the running binary. Reading and resetting them is cheap: a few
// hundred nanoseconds for a thousand counters.
//
// The counters are global: a Process is not meant for concurrent
// measurements, and code running in other goroutines during a measurement
// is counted too.
type Process struct {
	table  *Table
	ctrs   [][]uint32 // counters of each package, in table order
	base   []int      // index of each package's first block
	atomic bool       // read and reset with atomic operations
	nreg   int        // number of registered packages when built
}

var (
	procMu sync.Mutex
	proc   *Process
)

// Current returns the instrumented packages linked into this process. If
// none is, the error is [ErrNotInstrumented]. If paths are given, each must
// name an instrumented package; the error for a missing one wraps
// ErrNotInstrumented and names the packages that are instrumented.
func Current(paths ...string) (*Process, error) {
	pkgs := rt.Packages()
	procMu.Lock()
	p := proc
	if p == nil || p.nreg != len(pkgs) {
		var err error
		p, err = newProcess(pkgs)
		if err != nil {
			procMu.Unlock()
			return nil, err
		}
		proc = p
	}
	procMu.Unlock()
	if len(pkgs) == 0 {
		return nil, ErrNotInstrumented
	}
	var missing []string
	for _, path := range paths {
		if !p.has(path) {
			missing = append(missing, path)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("coverage: %s not instrumented in this binary (instrumented: %s); add it to the patterns of instrument.BuildOverlay: %w",
			strings.Join(missing, ", "), strings.Join(p.table.Packages(), ", "), ErrNotInstrumented)
	}
	return p, nil
}

func newProcess(pkgs []*rt.Package) (*Process, error) {
	md := make([]Metadata, len(pkgs))
	byPath := make(map[string]*rt.Package)
	for i, rp := range pkgs {
		if byPath[rp.Path] != nil {
			return nil, fmt.Errorf("coverage: package %s registered twice", rp.Path)
		}
		byPath[rp.Path] = rp
		if rp.Meta == "" {
			return nil, fmt.Errorf("coverage: package %s was instrumented by an incompatible version of kfuzz; build the overlay again", rp.Path)
		}
		md[i] = Metadata{Path: rp.Path, Text: rp.Meta}
	}
	t, err := NewTableFromMetadata(md)
	if err != nil {
		return nil, err
	}
	p := &Process{table: t, nreg: len(pkgs)}
	for _, tp := range t.pkgs {
		ctr := byPath[tp.path].Counters
		if len(ctr) != tp.nblocks {
			return nil, fmt.Errorf("coverage: package %s has %d counters for %d blocks", tp.path, len(ctr), tp.nblocks)
		}
		p.ctrs = append(p.ctrs, ctr)
		p.base = append(p.base, tp.blockBase)
		p.atomic = p.atomic || tp.mode == ModeAtomic
	}
	return p, nil
}

func (p *Process) has(path string) bool {
	for _, tp := range p.table.pkgs {
		if tp.path == path {
			return true
		}
	}
	return false
}

// Table returns the functions and blocks of the instrumented packages.
func (p *Process) Table() *Table { return p.table }

// Reset sets all counters to zero.
func (p *Process) Reset() {
	for _, c := range p.ctrs {
		if p.atomic {
			for i := range c {
				atomic.StoreUint32(&c[i], 0)
			}
		} else {
			clear(c)
		}
	}
}

// Snapshot returns the current counts.
func (p *Process) Snapshot() *Counts {
	c := NewCounts(p.table)
	p.Read(c)
	return c
}

// Read stores the current counts in c, which must belong to p's table. It
// does not allocate.
func (p *Process) Read(c *Counts) {
	if c.table != p.table {
		panic("coverage: Counts of a different Table")
	}
	for k, ctr := range p.ctrs {
		dst := c.n[p.base[k] : p.base[k]+len(ctr)]
		if p.atomic {
			for i := range ctr {
				dst[i] = uint64(atomic.LoadUint32(&ctr[i]))
			}
		} else {
			for i, v := range ctr {
				dst[i] = uint64(v)
			}
		}
	}
}

// Take stores the current counts in c, which must belong to p's table, and
// sets the counters to zero, swapping each counter atomically, so that no
// count of code running meanwhile is lost. Take between two points of a
// program gives what ran between them. It does not allocate.
func (p *Process) Take(c *Counts) {
	if c.table != p.table {
		panic("coverage: Counts of a different Table")
	}
	for k, ctr := range p.ctrs {
		dst := c.n[p.base[k] : p.base[k]+len(ctr)]
		for i := range ctr {
			dst[i] = uint64(atomic.SwapUint32(&ctr[i], 0))
		}
	}
}

// A Result is the coverage of one measured run.
type Result struct {
	// Funcs holds the functions entered during the run.
	Funcs *FuncSet
	// Counts holds how often each block ran; Counts.Hits gives how often
	// each function was entered.
	Counts *Counts
}

// A PanicError reports that a measured function panicked.
type PanicError struct {
	Value any    // the value passed to panic
	Stack []byte // the goroutine's stack at the panic
}

// Error returns "panic: " and the value.
func (e *PanicError) Error() string { return fmt.Sprintf("panic: %v", e.Value) }

// Unwrap returns the panic value if it is an error.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// Measure resets the counters, runs f and returns what it covered. If f
// panics, Measure recovers, returns the coverage up to the panic and a
// *[PanicError]. See [Process.MeasureInto] for measuring without
// allocating.
func (p *Process) Measure(f func()) (Result, error) {
	var res Result
	err := p.MeasureInto(&res, f)
	return res, err
}

// MeasureInto is Measure storing the result in res. It reuses res.Funcs
// and res.Counts if they belong to p's table, so that measuring many inputs
// allocates nothing; callers keep what they need (res.Funcs.Clone()).
//
// If f calls runtime.Goexit (as t.FailNow does), MeasureInto does not
// return, but res holds the coverage up to that point.
func (p *Process) MeasureInto(res *Result, f func()) (err error) {
	if res.Counts == nil || res.Counts.table != p.table {
		res.Counts = NewCounts(p.table)
	}
	if res.Funcs == nil || res.Funcs.table != p.table {
		res.Funcs = NewFuncSet(p.table)
	}
	p.Reset()
	defer func() {
		if v := recover(); v != nil {
			err = &PanicError{Value: v, Stack: debug.Stack()}
		}
		p.Read(res.Counts)
		res.Funcs.Clear()
		res.Counts.addFuncs(res.Funcs)
	}()
	f()
	return nil
}

// Measure is [Process.Measure] on the [Current] process. Without
// instrumentation it does not run f and returns [ErrNotInstrumented].
func Measure(f func()) (Result, error) {
	p, err := Current()
	if err != nil {
		return Result{}, err
	}
	return p.Measure(f)
}
