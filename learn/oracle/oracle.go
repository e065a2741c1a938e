package oracle

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// An Oracle decides membership of inputs in the language of valid inputs.
// Accept must be safe for concurrent use. It returns false for an input
// that is not valid, whatever the reason (an error message, a crash, a
// timeout); it returns an error only when it could not decide, such as when
// ctx is done or the program could not be started.
type Oracle interface {
	Accept(ctx context.Context, input []byte) (bool, error)
}

// A BatchOracle answers many inputs in one call, more cheaply than one call
// per input (for example one process start for all of them). AcceptAll uses
// it when the oracle has it. The answers are in the order of the inputs.
type BatchOracle interface {
	Oracle
	AcceptBatch(ctx context.Context, inputs [][]byte) ([]bool, error)
}

// AcceptAll answers every input, on as many goroutines as GOMAXPROCS, and
// returns the answers in the order of inputs. It stops at the first error.
// With a BatchOracle it makes a single AcceptBatch call.
func AcceptAll(ctx context.Context, o Oracle, inputs [][]byte) ([]bool, error) {
	if b, ok := o.(BatchOracle); ok {
		return b.AcceptBatch(ctx, inputs)
	}
	out := make([]bool, len(inputs))
	workers := min(runtime.GOMAXPROCS(0), len(inputs))
	if workers <= 1 {
		for i, in := range inputs {
			ok, err := o.Accept(ctx, in)
			if err != nil {
				return nil, err
			}
			out[i] = ok
		}
		return out, nil
	}
	var (
		next    atomic.Int64
		wg      sync.WaitGroup
		errOnce sync.Once
		first   error
		failed  atomic.Bool
	)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for !failed.Load() {
				i := int(next.Add(1)) - 1
				if i >= len(inputs) {
					return
				}
				ok, err := o.Accept(ctx, inputs[i])
				if err != nil {
					errOnce.Do(func() { first = err })
					failed.Store(true)
					return
				}
				out[i] = ok
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return out, nil
}

// Stats are the counts of a Counter, a Cache and a FuncOracle.
type Stats struct {
	Queries   int64         // calls that reached the wrapped oracle
	Accepted  int64         // of those, the accepted ones
	CacheHits int64         // answers a Cache gave without a query
	Panics    int64         // calls of a Func that panicked (counted as rejections)
	Timeouts  int64         // calls that exceeded the timeout (counted as rejections)
	Time      time.Duration // time spent in the wrapped oracle, summed over goroutines
}

// A Counter is an Oracle that counts the queries to the oracle it wraps.
type Counter struct {
	o                 Oracle
	queries, accepted atomic.Int64
	nanos             atomic.Int64
}

// Counted returns an Oracle that counts queries, acceptances and time.
func Counted(o Oracle) *Counter { return &Counter{o: o} }

// Accept implements Oracle.
func (c *Counter) Accept(ctx context.Context, input []byte) (bool, error) {
	start := time.Now()
	ok, err := c.o.Accept(ctx, input)
	c.nanos.Add(int64(time.Since(start)))
	if err != nil {
		return false, err
	}
	c.queries.Add(1)
	if ok {
		c.accepted.Add(1)
	}
	return ok, nil
}

// Stats returns the counts so far: Queries, Accepted and Time.
func (c *Counter) Stats() Stats {
	return Stats{Queries: c.queries.Load(), Accepted: c.accepted.Load(), Time: time.Duration(c.nanos.Load())}
}

// A Cache is an Oracle that remembers the answers of the oracle it wraps, so
// that each distinct input is queried once; concurrent queries of the same
// input wait for one answer. Errors are not remembered.
type Cache struct {
	o    Oracle
	mu   sync.Mutex
	m    map[string]*entry
	hits atomic.Int64
}

type entry struct {
	done chan struct{}
	ok   bool
	err  error
}

// Cached returns an Oracle that remembers the answers of o by input.
func Cached(o Oracle) *Cache { return &Cache{o: o, m: map[string]*entry{}} }

// Accept implements Oracle.
func (c *Cache) Accept(ctx context.Context, input []byte) (bool, error) {
	c.mu.Lock()
	if e, ok := c.m[string(input)]; ok {
		c.mu.Unlock()
		select {
		case <-e.done:
		case <-ctx.Done():
			return false, ctx.Err()
		}
		if e.err == nil {
			c.hits.Add(1)
			return e.ok, nil
		}
		return c.Accept(ctx, input) // the first asker failed; ask again
	}
	e := &entry{done: make(chan struct{})}
	c.m[string(input)] = e
	c.mu.Unlock()
	e.ok, e.err = c.o.Accept(ctx, input)
	if e.err != nil {
		c.mu.Lock()
		delete(c.m, string(input))
		c.mu.Unlock()
	}
	close(e.done)
	return e.ok, e.err
}

// Hits returns how many answers came from the cache.
func (c *Cache) Hits() int64 { return c.hits.Load() }

// Len returns the number of inputs remembered.
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// AcceptBatch answers inputs with one AcceptAll call on the wrapped oracle for
// the inputs not yet remembered (each distinct input once); it implements
// BatchOracle.
func (c *Cache) AcceptBatch(ctx context.Context, inputs [][]byte) ([]bool, error) {
	out := make([]bool, len(inputs))
	var (
		miss    [][]byte
		mine    []*entry
		waitFor = map[int]*entry{}
	)
	c.mu.Lock()
	for i, in := range inputs {
		if e, ok := c.m[string(in)]; ok {
			waitFor[i] = e
			continue
		}
		e := &entry{done: make(chan struct{})}
		c.m[string(in)] = e
		waitFor[i] = e
		miss = append(miss, in)
		mine = append(mine, e)
	}
	c.mu.Unlock()
	var err error
	if len(miss) > 0 {
		var oks []bool
		oks, err = AcceptAll(ctx, c.o, miss)
		c.mu.Lock()
		for k, e := range mine {
			if err != nil {
				e.err = err
				delete(c.m, string(miss[k]))
			} else {
				e.ok = oks[k]
			}
			close(e.done)
		}
		c.mu.Unlock()
		if err != nil {
			return nil, err
		}
	}
	own := make(map[*entry]bool, len(mine))
	for _, e := range mine {
		own[e] = true
	}
	for i := range inputs {
		e := waitFor[i]
		if own[e] {
			out[i] = e.ok
			own[e] = false // a later duplicate in this batch is a hit
			continue
		}
		select {
		case <-e.done:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if e.err != nil {
			ok, err := c.Accept(ctx, inputs[i])
			if err != nil {
				return nil, err
			}
			out[i] = ok
			continue
		}
		c.hits.Add(1)
		out[i] = e.ok
	}
	return out, nil
}

// AcceptBatch answers inputs with one AcceptAll call on the wrapped oracle;
// it implements BatchOracle.
func (c *Counter) AcceptBatch(ctx context.Context, inputs [][]byte) ([]bool, error) {
	start := time.Now()
	oks, err := AcceptAll(ctx, c.o, inputs)
	c.nanos.Add(int64(time.Since(start)))
	if err != nil {
		return nil, err
	}
	c.queries.Add(int64(len(inputs)))
	for _, ok := range oks {
		if ok {
			c.accepted.Add(1)
		}
	}
	return oks, nil
}
