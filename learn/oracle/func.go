package oracle

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// DefaultTimeout is the per-call timeout of Func and Command unless an
// Option or the Timeout field says otherwise.
const DefaultTimeout = 10 * time.Second

// An Option configures Func.
type Option func(*FuncOracle)

// Timeout sets the longest a single call may take; a call that takes longer
// counts as a rejection. Zero or a negative d means no timeout: the function
// then runs on the caller's goroutine, which is cheaper, and a call that
// never returns hangs the caller.
func Timeout(d time.Duration) Option { return func(f *FuncOracle) { f.timeout = d } }

// A FuncOracle is an in-process Oracle over a Go function. See Func.
type FuncOracle struct {
	f                 func([]byte) bool
	timeout           time.Duration
	queries, accepted atomic.Int64
	panics, timeouts  atomic.Int64
}

// Func returns an Oracle that accepts the inputs for which f returns true.
// f must be safe for concurrent use and must not keep or modify its
// argument. A call that panics counts as a rejection, and so does a call
// that takes longer than the timeout (DefaultTimeout unless set with the
// Timeout option); Stats counts both.
//
// A Go function cannot be stopped from outside: a call that times out keeps
// running on its own goroutine until it returns (and a call that never
// returns keeps its goroutine and what it holds forever). Stats.Timeouts
// tells that this happened; a target that can hang should be run with
// Command instead, whose process is killed.
func Func(f func([]byte) bool, opts ...Option) *FuncOracle {
	o := &FuncOracle{f: f, timeout: DefaultTimeout}
	for _, opt := range opts {
		opt(o)
	}
	return o
}

// Accept implements Oracle. The error is non-nil only when ctx is done.
func (o *FuncOracle) Accept(ctx context.Context, input []byte) (bool, error) {
	if err := ctx.Err(); err != nil {
		return false, err
	}
	var ok bool
	if o.timeout <= 0 {
		ok = o.call(input)
	} else {
		res := make(chan bool, 1)
		in := append([]byte(nil), input...) // the call may outlive this one
		go func() { res <- o.call(in) }()
		t := time.NewTimer(o.timeout)
		select {
		case ok = <-res:
			t.Stop()
		case <-t.C:
			o.timeouts.Add(1)
			ok = false
		case <-ctx.Done():
			t.Stop()
			return false, ctx.Err()
		}
	}
	o.queries.Add(1)
	if ok {
		o.accepted.Add(1)
	}
	return ok, nil
}

func (o *FuncOracle) call(input []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			o.panics.Add(1)
			ok = false
		}
	}()
	return o.f(input)
}

// Stats returns the calls so far (Queries, Accepted), the calls that
// panicked and those that timed out.
func (o *FuncOracle) Stats() Stats {
	return Stats{Queries: o.queries.Load(), Accepted: o.accepted.Load(), Panics: o.panics.Load(), Timeouts: o.timeouts.Load()}
}

// AcceptBatch answers inputs on GOMAXPROCS worker goroutines that call the
// function directly, without a goroutine per call; it implements
// BatchOracle. A monitor watches the calls in flight: one that exceeds the
// timeout is answered false, its worker is abandoned (it keeps running the
// call) and a new worker takes over the rest of the batch.
func (o *FuncOracle) AcceptBatch(ctx context.Context, inputs [][]byte) ([]bool, error) {
	out := make([]bool, len(inputs))
	var (
		next atomic.Int64
		wg   sync.WaitGroup
		mu   sync.Mutex
		live []*batchWorker
	)
	var run func(w *batchWorker)
	run = func(w *batchWorker) {
		for ctx.Err() == nil {
			i := next.Add(1) - 1
			if i >= int64(len(inputs)) {
				break
			}
			w.start.Store(time.Now().UnixNano())
			w.cur.Store(i + 1)
			ok := o.call(inputs[i])
			if !w.cur.CompareAndSwap(i+1, 0) {
				return // abandoned by the monitor, which answered input i
			}
			o.queries.Add(1)
			if ok {
				o.accepted.Add(1)
			}
			out[i] = ok
		}
		wg.Done()
	}
	start := func() {
		w := &batchWorker{}
		mu.Lock()
		live = append(live, w)
		mu.Unlock()
		wg.Add(1)
		go run(w)
	}
	for range min(runtime.GOMAXPROCS(0), len(inputs)) {
		start()
	}
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	if o.timeout > 0 {
		tick := time.NewTicker(min(max(o.timeout/4, time.Millisecond), 100*time.Millisecond))
		defer tick.Stop()
	watch:
		for {
			select {
			case <-finished:
				break watch
			case <-tick.C:
			}
			now := time.Now().UnixNano()
			mu.Lock()
			ws := append([]*batchWorker(nil), live...)
			mu.Unlock()
			for _, w := range ws {
				i := w.cur.Load()
				if i == 0 || now-w.start.Load() < int64(o.timeout) || !w.cur.CompareAndSwap(i, 0) {
					continue
				}
				o.timeouts.Add(1)
				o.queries.Add(1)
				out[i-1] = false
				mu.Lock()
				for k, x := range live {
					if x == w {
						live = append(live[:k], live[k+1:]...)
						break
					}
				}
				mu.Unlock()
				start()
				wg.Done() // for the abandoned worker
			}
		}
	} else {
		<-finished
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// A batchWorker is a worker of AcceptBatch: cur is the index+1 of the input
// it is calling the function on (0 when between calls), start when it began.
type batchWorker struct {
	cur, start atomic.Int64
}
