package algebra

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A growthFamily is a family of expressions over n JSON patterns.
type growthFamily struct {
	name    string
	pattern func(i int) string // the text of <member> pattern i (1-based)
	expr    func(n int) string
}

func key(i int) string { return string(rune('a' + i - 1)) }

func joinNames(n int, f func(i int) string, op string) string {
	var parts []string
	for i := 1; i <= n; i++ {
		parts = append(parts, f(i))
	}
	return strings.Join(parts, op)
}

var growthFamilies = []growthFamily{
	{"P1 and ... and Pn", func(i int) string { return `"` + key(i) + `":<element>` },
		func(n int) string { return joinNames(n, func(i int) string { return fmt.Sprintf("P%d", i) }, " and ") }},
	{"P1 or ... or Pn", func(i int) string { return `"` + key(i) + `":<element>` },
		func(n int) string { return joinNames(n, func(i int) string { return fmt.Sprintf("P%d", i) }, " or ") }},
	{"not P1 and ... and not Pn", func(i int) string { return `"` + key(i) + `":<ws>[<element>]<ws>` },
		func(n int) string {
			return joinNames(n, func(i int) string { return fmt.Sprintf("not P%d", i) }, " and ")
		}},
	{"P1 and not P2 and P3 ...", func(i int) string { return `"` + key(i) + `":<ws>[<element>]<ws>` },
		func(n int) string {
			return joinNames(n, func(i int) string {
				if i%2 == 0 {
					return fmt.Sprintf("not P%d", i)
				}
				return fmt.Sprintf("P%d", i)
			}, " and ")
		}},
}

// noSharingMaxRules bounds the runs without sharing, some of which would
// otherwise take minutes.
const noSharingMaxRules = 1000

type growthRow struct {
	n                      int
	rules, symbols, shared int
	rulesNS, symbolsNS     int
	time, timeNS           time.Duration
	limitErr, limitErrNoSh error
}

// measureGrowth specializes the family's expression over n patterns, with
// and without sharing, and times the fastest of three runs.
func measureGrowth(t testing.TB, a *Algebra, f growthFamily, n, maxRules int) growthRow {
	var pats []*Pattern
	for i := 1; i <= n; i++ {
		p, err := a.ParsePattern(fmt.Sprintf("P%d", i), "member", f.pattern(i))
		if err != nil {
			t.Fatal(err)
		}
		pats = append(pats, p)
	}
	e, err := ParseExpr(f.expr(n))
	if err != nil {
		t.Fatal(err)
	}
	row := growthRow{n: n}
	for _, noSharing := range []bool{false, true} {
		opts := &Options{MaxRules: maxRules, NoSharing: noSharing}
		if noSharing && maxRules == 0 {
			opts.MaxRules = noSharingMaxRules
		}
		best := time.Duration(1 << 62)
		var res *Result
		var err error
		// The fastest of three runs, or one if it takes over a second.
		for i := 0; i < 3 && err == nil && (i == 0 || best < time.Second); i++ {
			start := cpuTime()
			res, err = a.Specialize(pats, e, opts)
			best = min(best, cpuTime()-start)
		}
		if noSharing {
			row.timeNS, row.limitErrNoSh = best, err
			if err == nil {
				row.rulesNS, row.symbolsNS = res.Rules, res.Symbols
			}
		} else {
			row.time, row.limitErr = best, err
			if err == nil {
				row.rules, row.symbols, row.shared = res.Rules, res.Symbols, res.Merged
			}
		}
	}
	return row
}

// TestGrowth measures the size of specialized grammars and the time to
// build them as the number of patterns grows, with and without sharing
// (go test -run TestGrowth -v prints the table of docs/algebra.md), and
// checks that sharing never makes a grammar larger and that the size limit
// stops the construction with an error naming -max-rules.
func TestGrowth(t *testing.T) {
	maxN := 8
	if testing.Short() {
		maxN = 4
	}
	a, err := New(grammar.MustBuiltin("json"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, f := range growthFamilies {
		fmt.Fprintf(&b, "\n%s\n\n| n | rules | symbols | shared | time | rules, no sharing | symbols, no sharing | time, no sharing |\n|---|---|---|---|---|---|---|---|\n", f.name)
		for n := 1; n <= maxN; n++ {
			r := measureGrowth(t, a, f, n, 0)
			if r.limitErr != nil {
				t.Fatalf("%s, n=%d: %v", f.name, n, r.limitErr)
			}
			noSharing := fmt.Sprintf("%d | %d | %.1f ms", r.rulesNS, r.symbolsNS, float64(r.timeNS.Microseconds())/1000)
			if r.limitErrNoSh != nil {
				var le *LimitError
				if !errors.As(r.limitErrNoSh, &le) {
					t.Fatalf("%s, n=%d, no sharing: %v", f.name, n, r.limitErrNoSh)
				}
				noSharing = fmt.Sprintf("over the limit (%d %s) | | %.1f ms", le.Limit, le.What, float64(r.timeNS.Microseconds())/1000)
			}
			fmt.Fprintf(&b, "| %d | %d | %d | %d | %.1f ms | %s |\n", n, r.rules, r.symbols, r.shared,
				float64(r.time.Microseconds())/1000, noSharing)
			t.Logf("%s n=%d done", f.name, n)
			if r.limitErrNoSh == nil && (r.rules > r.rulesNS || r.symbols > r.symbolsNS) {
				t.Errorf("%s, n=%d: sharing gives %d rules, %d symbols; without, %d rules, %d symbols", f.name, n, r.rules, r.symbols, r.rulesNS, r.symbolsNS)
			}
		}
	}
	t.Logf("growth (json, base grammar %d rules; CPU time, fastest of 3 runs):\n%s", len(a.Grammar().Rules), b.String())

	r := measureGrowth(t, a, growthFamilies[0], maxN, 60)
	var le *LimitError
	if !errors.As(r.limitErr, &le) || !strings.Contains(r.limitErr.Error(), "-max-rules") {
		t.Errorf("with MaxRules 60, %d patterns: %v, want a LimitError naming -max-rules", maxN, r.limitErr)
	}
}
