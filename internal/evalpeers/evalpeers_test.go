package evalpeers

import (
	"context"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/internal/gomod"
)

// scratch writes the scratch modules for the subjects once per test.
func scratch(t *testing.T, subjects []Subject) *Scratch {
	t.Helper()
	root, err := gomod.KfuzzRoot(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	s, err := WriteScratch(context.Background(), root, t.TempDir(), subjects)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestFaultsReachable proves every seeded fault reachable: its triggering
// input panics with it in the mutated copy and not in the clean copy, and
// no example panics.
func TestFaultsReachable(t *testing.T) {
	if len(Faults) < 20 {
		t.Fatalf("%d seeded faults, want at least 20", len(Faults))
	}
	for i, f := range Faults {
		if f.ID != i+1 || SubjectNamed(f.Subject) == nil {
			t.Fatalf("fault %d: ID %d or subject %q wrong", i+1, f.ID, f.Subject)
		}
	}
	s := scratch(t, Subjects)
	if err := s.CheckFaults(context.Background()); err != nil {
		t.Fatal(err)
	}
}

func TestMutateErrors(t *testing.T) {
	src := []byte("package p\n\nfunc f(x int) {\n\tx++\n\tx++\n}\n")
	_, err := Mutate("p.go", src, []Fault{
		{ID: 1, File: "p.go", Anchor: "x++", Cond: "x > 1"},
		{ID: 2, File: "p.go", Anchor: "y++", Cond: "true"},
	})
	if err == nil || !strings.Contains(err.Error(), "fault 1: anchor \"x++\" occurs more than once") || !strings.Contains(err.Error(), "fault 2: anchor \"y++\" not found") {
		t.Fatalf("Mutate = %v, want both anchor errors", err)
	}
	out, err := Mutate("p.go", src, []Fault{{ID: 3, File: "p.go", Anchor: "func f(x int) {", Cond: "x == 3"}, {ID: 4, File: "q.go", Anchor: "nothing"}})
	if err != nil {
		t.Fatal(err)
	}
	want := "package p\n\nfunc f(x int) {\n\tif x == 3 { kfuzzFault(3) }\n\tx++\n\tx++\n}\n"
	if string(out) != want {
		t.Fatalf("Mutate = %q, want %q", out, want)
	}
}
