package mineeval

import (
	"context"
	"testing"
)

// TestMeasureReferenceItself checks that the reference grammar, taken as the
// mined grammar, scores precision = recall = F1 = 1 on every subject.
func TestMeasureReferenceItself(t *testing.T) {
	for _, s := range Subjects() {
		t.Run(s.Name, func(t *testing.T) {
			_, ref := subjectGrammar(t, s.Name)
			sc, err := Measure(context.Background(), ref, ref, s.Oracle, Options{N: testN(), Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if sc.Precision != 1 || sc.Recall != 1 || sc.F1 != 1 || sc.ItemLimit != 0 {
				t.Errorf("reference against itself: %+v, want precision = recall = F1 = 1", sc)
			}
		})
	}
}

// TestMeasureWrongGrammars checks that grammars too general and too narrow
// for the expr subject lose precision and recall respectively.
func TestMeasureWrongGrammars(t *testing.T) {
	s, ref := subjectGrammar(t, "expr")
	for _, tc := range []struct {
		name, src      string
		precLo, precHi float64
		recLo, recHi   float64
	}{
		// Every string over the alphabet: all of the language, and much else.
		{"too general", `<s> ::= [xyz0-9+\-*/%()]+ ;`, 0, 0.5, 1, 1},
		// Sums of identifiers: all valid, but few of the language.
		{"too narrow", `<s> ::= [xyz] ("+" [xyz])* ;`, 1, 1, 0, 0.3},
		// Unbalanced parentheses: neither.
		{"wrong", `<s> ::= "(" [xyz] ;`, 0, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sc, err := Measure(context.Background(), mustParse(t, tc.name, tc.src), ref, s.Oracle, Options{N: testN(), Seed: 7})
			if err != nil {
				t.Fatal(err)
			}
			if sc.Precision < tc.precLo || sc.Precision > tc.precHi || sc.Recall < tc.recLo || sc.Recall > tc.recHi {
				t.Errorf("precision %.3f, recall %.3f; want precision in [%g, %g], recall in [%g, %g]",
					sc.Precision, sc.Recall, tc.precLo, tc.precHi, tc.recLo, tc.recHi)
			}
			if sc.F1 >= 1 {
				t.Errorf("F1 = %.3f for a wrong grammar", sc.F1)
			}
		})
	}
}

// TestMeasureItemLimit checks that recall parses stopped by the Earley item
// limit count as rejections and are reported.
func TestMeasureItemLimit(t *testing.T) {
	s, ref := subjectGrammar(t, "expr")
	// A highly ambiguous grammar of the same strings.
	g := mustParse(t, "ambiguous", `<s> ::= <s> <s> | [xyz0-9+\-*/%()] ;`)
	sc, err := Measure(context.Background(), g, ref, s.Oracle, Options{N: 50, Seed: 7, MaxItems: 2000})
	if err != nil {
		t.Fatal(err)
	}
	if sc.ItemLimit == 0 || sc.RecallAccepted+sc.ItemLimit != 50 {
		t.Errorf("item limit hit %d times, %d accepted of 50; want hits, and all others accepted", sc.ItemLimit, sc.RecallAccepted)
	}
	if sc.Recall != float64(sc.RecallAccepted)/50 {
		t.Errorf("recall %.3f counts the inputs over the limit", sc.Recall)
	}
}

func TestMeasureDeterministic(t *testing.T) {
	s, ref := subjectGrammar(t, "lisp")
	g := mustParse(t, "atoms", `<s> ::= "(" ([a-z0-9 ]* | <s>) ")" ;`)
	a, err := Measure(context.Background(), g, ref, s.Oracle, Options{N: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	b, err := Measure(context.Background(), g, ref, s.Oracle, Options{N: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if *a != *b {
		t.Errorf("same seed, different scores: %+v and %+v", a, b)
	}
}
