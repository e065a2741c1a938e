package glue

import (
	kfuzzglueruntime "runtime"

	kfuzzgluecoverage "github.com/seed72891827/kfuzz/coverage"
	kfuzzglueharness "github.com/seed72891827/kfuzz/fuzzharness"
)

func init() {
	kfuzzglueharness.SetMeasureHook(&zzKfuzzMeasureHook{})
}

// zzKfuzzMeasureHook takes the coverage counters around every input.
type zzKfuzzMeasureHook struct {
	before *kfuzzgluecoverage.Counts
}

// zzKfuzzMeasureCounters is what the hook returns for an input: the JSON
// form of protocol.Counters.
type zzKfuzzMeasureCounters struct {
	Before *kfuzzgluecoverage.Counts `json:"before,omitempty"`
	Blocks *kfuzzgluecoverage.Counts `json:"blocks"`
}

func (h *zzKfuzzMeasureHook) Begin() {
	// Two collections empty every sync.Pool (its objects survive one in
	// the victim cache), so that each input finds them empty whenever the
	// collector last ran: a pool's New function then runs for exactly the
	// inputs that use the pool.
	kfuzzglueruntime.GC()
	kfuzzglueruntime.GC()
	h.before = zzKfuzzMeasureTake()
}

func (h *zzKfuzzMeasureHook) End() any {
	c := &zzKfuzzMeasureCounters{Before: h.before, Blocks: zzKfuzzMeasureTake()}
	h.before = nil
	return c
}

// zzKfuzzMeasureTake returns the counts since the last take and sets the
// counters to zero.
func zzKfuzzMeasureTake() *kfuzzgluecoverage.Counts {
	p, err := kfuzzgluecoverage.Current()
	if err != nil {
		// The test binary was built without the overlay's
		// instrumentation: nothing to measure, a bug of kfuzz.
		panic(err)
	}
	c := kfuzzgluecoverage.NewCounts(p.Table())
	p.Take(c)
	return c
}
