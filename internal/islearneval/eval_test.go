package islearneval

import (
	"context"
	"testing"
)

func subject(t *testing.T, name string) *Subject {
	t.Helper()
	ss, err := Subjects()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range ss {
		if s.Name == name {
			return s
		}
	}
	t.Fatalf("no subject %s", name)
	return nil
}

// testSubject mines the subject's constraint and checks that its held-out
// recall and specificity reach at least the given figures (the paper's
// Table 3 where it has them).
func testSubject(t *testing.T, name string, recall, specificity float64) {
	s := subject(t, name)
	if s.Slow && testing.Short() {
		t.Skip("the solver's samples take long; run without -short")
	}
	r, err := Run(context.Background(), s, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s (%s, %d candidates, %v): TP %d FN %d FP %d TN %d\n%s", name, r.Best.Pattern, r.Candidates, r.Mine, r.TP, r.FN, r.FP, r.TN, r.Best.Formula)
	if r.Recall() < recall || r.Specificity() < specificity {
		t.Errorf("%s: held-out recall %.2f, specificity %.2f; want at least %.2f and %.2f",
			name, r.Recall(), r.Specificity(), recall, specificity)
	}
}

func TestDOT(t *testing.T)    { testSubject(t, "dot", 1, 0.84) }
func TestICMP(t *testing.T)   { testSubject(t, "icmp", 1, 1) }
func TestRacket(t *testing.T) { testSubject(t, "racket", 0.72, 0.90) }
func TestXML(t *testing.T)    { testSubject(t, "xml", 1, 1) }
func TestScriptsizeC(t *testing.T) {
	testSubject(t, "scriptsizec", 1, 1)
}
