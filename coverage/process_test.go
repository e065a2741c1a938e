package coverage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/coverage/internal/meta"
	"github.com/seed72891827/kfuzz/coverage/internal/metatest"
	"github.com/seed72891827/kfuzz/coverage/rt"
)

// syntheticMeta describes a made-up package (see metatest.Package).
var syntheticMeta = metatest.Package

// fakeProcess returns a Process for synthetic packages as rt would
// register them, with their counters.
func fakeProcess(t testing.TB, metas ...*meta.Package) (*Process, [][]uint32) {
	var pkgs []*rt.Package
	var ctrs [][]uint32
	for _, m := range metas {
		c := make([]uint32, len(m.Blocks))
		ctrs = append(ctrs, c)
		pkgs = append(pkgs, &rt.Package{Path: m.Path, Counters: c, Meta: m.Encode()})
	}
	p, err := newProcess(pkgs)
	if err != nil {
		t.Fatal(err)
	}
	return p, ctrs
}

func TestCurrentNotInstrumented(t *testing.T) {
	// Nothing in this test binary is instrumented.
	if _, err := Current(); err != ErrNotInstrumented {
		t.Errorf("Current() error = %v", err)
	}
	ran := false
	if _, err := Measure(func() { ran = true }); !errors.Is(err, ErrNotInstrumented) || ran {
		t.Errorf("Measure error = %v, ran = %v", err, ran)
	}
}

func TestProcessMeasure(t *testing.T) {
	// Registered in the order b, a; tables sort packages by path.
	p, ctrs := fakeProcess(t, syntheticMeta("example.com/b", 2, 3), syntheticMeta("example.com/a", 3, 2))
	table := p.Table()
	if got := fmt.Sprint(table.Packages()); got != "[example.com/a example.com/b]" {
		t.Fatalf("packages %s", got)
	}
	b, a := ctrs[0], ctrs[1]
	a[0] = 7 // before the measurement: reset
	res, err := p.Measure(func() {
		a[2] += 2 // a.F1 entered twice
		a[3]++
		b[3]++ // b.F1 entered
		b[5]++
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Funcs.String(); got != "{example.com/a.F1, example.com/b.F1}" {
		t.Errorf("Funcs = %s", got)
	}
	aF1, _ := table.Lookup("example.com/a.F1")
	bF1, _ := table.Lookup("example.com/b.F1")
	if res.Counts.Hits(aF1) != 2 || res.Counts.Hits(bF1) != 1 || res.Counts.Hits(0) != 0 {
		t.Errorf("hits %d %d %d", res.Counts.Hits(aF1), res.Counts.Hits(bF1), res.Counts.Hits(0))
	}
	if cov, tot := res.Counts.Statements(aF1); cov != 3 || tot != 3 {
		t.Errorf("a.F1 statements %d of %d, want 3 of 3", cov, tot)
	}
	if cov, tot := res.Counts.Statements(bF1); cov != 4 || tot != 6 {
		t.Errorf("b.F1 statements %d of %d, want 4 of 6", cov, tot)
	}
	// MeasureInto reuses the result.
	counts, funcs := res.Counts, res.Funcs
	if err := p.MeasureInto(&res, func() { a[0]++ }); err != nil {
		t.Fatal(err)
	}
	if res.Counts != counts || res.Funcs != funcs || res.Funcs.String() != "{example.com/a.F0}" || res.Counts.Hits(aF1) != 0 {
		t.Errorf("MeasureInto: %v, reused %v %v", res.Funcs, res.Counts == counts, res.Funcs == funcs)
	}
	// Read reuses Counts.
	c := NewCounts(table)
	b[0] = 1
	p.Read(c)
	if c.Block(6+0) != 1 || c.Block(0) != 1 || c.Block(2) != 0 {
		t.Errorf("Read: %v", c.n)
	}
	p.Reset()
	p.Read(c)
	if c.Funcs().Len() != 0 || a[2] != 0 {
		t.Errorf("after Reset: %v", c.n)
	}
}

func TestMeasurePanic(t *testing.T) {
	p, ctrs := fakeProcess(t, syntheticMeta("example.com/a", 2, 1))
	res, err := p.Measure(func() {
		ctrs[0][1]++
		panic(errors.New("boom"))
	})
	var pe *PanicError
	if !errors.As(err, &pe) || err.Error() != "panic: boom" || pe.Unwrap() == nil || pe.Unwrap().Error() != "boom" {
		t.Fatalf("error %v", err)
	}
	if !bytes.Contains(pe.Stack, []byte("process_test.go")) {
		t.Errorf("stack lacks the panicking function:\n%s", pe.Stack)
	}
	if got := res.Funcs.String(); got != "{example.com/a.F1}" {
		t.Errorf("coverage up to the panic: %s", got)
	}
}

func TestMeasureGoexit(t *testing.T) {
	p, ctrs := fakeProcess(t, syntheticMeta("example.com/a", 2, 1))
	var res Result
	returned := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.MeasureInto(&res, func() {
			ctrs[0][0]++
			runtime.Goexit()
		})
		returned = true
	}()
	<-done
	if returned || res.Funcs == nil || res.Funcs.String() != "{example.com/a.F0}" {
		t.Errorf("returned %v, functions %v", returned, res.Funcs)
	}
}

func TestProcessErrors(t *testing.T) {
	m := syntheticMeta("example.com/a", 1, 2)
	tests := []struct {
		pkgs []*rt.Package
		want string
	}{
		{[]*rt.Package{{Path: "example.com/a", Counters: make([]uint32, 2)}}, "incompatible version"},
		{[]*rt.Package{{Path: "example.com/a", Counters: make([]uint32, 3), Meta: m.Encode()}}, "3 counters for 2 blocks"},
		{[]*rt.Package{{Path: "example.com/a", Counters: make([]uint32, 2), Meta: m.Encode()},
			{Path: "example.com/a", Counters: make([]uint32, 2), Meta: m.Encode()}}, "registered twice"},
		{[]*rt.Package{{Path: "example.com/a", Counters: make([]uint32, 2), Meta: "mode count\nblock 7 1 1 1 1 1\n"}}, "block 0 out of range"},
	}
	for _, tt := range tests {
		if _, err := newProcess(tt.pkgs); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("error %v, want %q", err, tt.want)
		}
	}
}

// BenchmarkMeasure measures the overhead per input of Measure (reset, run
// and read) on 1,000 counters in 200 functions, with a run that touches 60
// of them.
func BenchmarkMeasure(b *testing.B) {
	p, ctrs := fakeProcess(b, syntheticMeta("example.com/a", 120, 5), syntheticMeta("example.com/b", 80, 5))
	b.ReportAllocs()
	for b.Loop() {
		p.Measure(func() {
			for i := 0; i < 300; i += 5 {
				ctrs[0][i]++
			}
		})
	}
}

// BenchmarkMeasureInto is BenchmarkMeasure reusing one Result.
func BenchmarkMeasureInto(b *testing.B) {
	p, ctrs := fakeProcess(b, syntheticMeta("example.com/a", 120, 5), syntheticMeta("example.com/b", 80, 5))
	var res Result
	run := func() {
		for i := 0; i < 300; i += 5 {
			ctrs[0][i]++
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		p.MeasureInto(&res, run)
	}
}

func TestTake(t *testing.T) {
	p, ctrs := fakeProcess(t, syntheticMeta("example.com/b", 1, 2), syntheticMeta("example.com/a", 1, 3))
	ctrs[0][1] = 5 // example.com/b, its second block
	ctrs[1][0] = 2 // example.com/a, its first block
	c := NewCounts(p.Table())
	p.Take(c)
	if c.Block(0) != 2 || c.Block(3+1) != 5 || ctrs[0][1] != 0 || ctrs[1][0] != 0 {
		t.Errorf("Take: counts %v, counters left %v", c.n, ctrs)
	}
	p.Take(c)
	if c.Funcs().Len() != 0 {
		t.Errorf("the second Take: %v", c.n)
	}
}

func TestCountsJSON(t *testing.T) {
	p, ctrs := fakeProcess(t, syntheticMeta("example.com/b", 1, 2), syntheticMeta("example.com/a", 1, 3), syntheticMeta("example.com/c", 1, 1))
	ctrs[0][1] = 5
	ctrs[1][0] = 2
	ctrs[1][2] = 1
	data, err := json.Marshal(p.Snapshot())
	if err != nil {
		t.Fatal(err)
	}
	// Per package, pairs of a counter index and its count; only non-zero
	// counts.
	if want := `{"example.com/a":[0,2,2,1],"example.com/b":[1,5]}`; string(data) != want {
		t.Errorf("JSON %s, want %s", data, want)
	}
	data, _ = json.Marshal(NewCounts(p.Table()))
	if string(data) != "{}" {
		t.Errorf("JSON of zero counts: %s", data)
	}
}
