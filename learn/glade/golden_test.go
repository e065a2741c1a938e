package glade

import (
	"context"
	"strings"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// xmlOracle is the paper's O_XML (Figure 1): A → (a + … + z + <a> A </a>)*.
func xmlOracle(b []byte) bool {
	depth := 0
	for i := 0; i < len(b); {
		switch {
		case b[i] >= 'a' && b[i] <= 'z':
			i++
		case len(b)-i >= 3 && string(b[i:i+3]) == "<a>":
			depth++
			i += 3
		case len(b)-i >= 4 && string(b[i:i+4]) == "</a>":
			if depth == 0 {
				return false
			}
			depth--
			i += 4
		default:
			return false
		}
	}
	return depth == 0
}

// TestPaperExample reproduces Figures 2 and 3 of the paper: the seed
// <a>hi</a> with O_XML, without character generalization.
func TestPaperExample(t *testing.T) {
	res, err := Synthesize(context.Background(), [][]byte{[]byte("<a>hi</a>")}, oracle.Func(xmlOracle),
		WithTrace(true), WithCharGeneralization(false), WithRecursion(false), WithExtraContexts(false))
	if err != nil {
		t.Fatal(err)
	}
	// Figure 3: the bracket each step generalizes, its context (section
	// 4.3) and what it becomes.
	want := []struct {
		name, bracket string
		ctx           [2]string
		chosen        string
	}{
		{"R1", "[<a>hi</a>]rep", [2]string{"", ""}, "([<a>hi</a>]alt)*"},
		{"R2", "[<a>hi</a>]alt", [2]string{"", ""}, "[<a>hi</a>]rep"},
		{"R3", "[<a>hi</a>]rep", [2]string{"", ""}, "<a>([hi]alt)*[</a>]rep"},
		{"R4", "[</a>]rep", [2]string{"<a>hi", ""}, "</a>"},
		{"R5", "[hi]alt", [2]string{"<a>", "</a>"}, "[h]rep+[i]alt"},
		{"R6", "[i]alt", [2]string{"<a>h", "</a>"}, "[i]rep"},
		{"R7", "[i]rep", [2]string{"<a>h", "</a>"}, "i"},
		{"R8", "[h]rep", [2]string{"<a>", "i</a>"}, "h"},
		{"C1", "(A'R1, A'R3)", [2]string{"", ""}, "merge A'R1 A'R3"},
	}
	if len(res.Trace) != len(want) {
		for _, st := range res.Trace {
			t.Logf("%s %s -> %s", st.Name, st.Bracket, st.Chosen)
		}
		t.Fatalf("%d steps, want %d", len(res.Trace), len(want))
	}
	for i, w := range want {
		st := res.Trace[i]
		if st.Name != w.name || st.Bracket != w.bracket || st.Context != w.ctx || st.Chosen != w.chosen {
			t.Errorf("step %d = %s %s %q -> %s; want %s %s %q -> %s", i+1,
				st.Name, st.Bracket, st.Context, st.Chosen, w.name, w.bracket, w.ctx, w.chosen)
		}
	}
	// Figure 2: the checks of the chosen candidates (all accepted) and of
	// the rejected ones the paper shows.
	chosenChecks := map[string][]string{
		"R1": {"", "<a>hi</a><a>hi</a>"},
		"R2": nil, // [<a>hi</a>]rep keeps the language
		"R3": {"<a></a>", "<a>hihi</a>"},
		"R4": nil,
		"R5": {"<a>h</a>", "<a>i</a>"},
		"C1": {"hihi", "<a><a>hi</a><a>hi</a></a>"},
	}
	for _, st := range res.Trace {
		w, ok := chosenChecks[st.Name]
		if !ok {
			continue
		}
		last := st.Candidates[len(st.Candidates)-1]
		if got := checkInputs(last.Checks, true); strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("%s: checks of the chosen candidate %q = %q, want %q", st.Name, last.Generalization, got, w)
		}
	}
	// R3 first tries the candidates with α1 = ε (the whole string starred
	// again has no check outside the current language and is skipped); the
	// oracle rejects them.
	r3 := res.Trace[2]
	if c := r3.Candidates[0]; c.Generalization != "([<a>hi</a]alt)*[>]rep" || len(checkInputs(c.Checks, false)) == 0 {
		t.Errorf("R3 first candidate = %+v; want ([<a>hi</a]alt)*[>]rep, rejected", c)
	}
	// R2's alternation candidates are all rejected: < is not valid.
	if c := res.Trace[1].Candidates[0]; c.Generalization != "[<]rep+[a>hi</a>]alt" || c.Checks[0] != (Check{"<", false}) {
		t.Errorf("R2 first candidate = %+v", c)
	}
	// Section 5: the final grammar {A → (<a> A </a>)*, A → (h + i)*}.
	wantG := "<start> ::= <rep1> ;\n\n<rep1> ::= (\"<a>\" <rep1> \"</a>\")* | (\"h\" | \"i\")* ;\n"
	if got := res.Grammar.String(); got != wantG {
		t.Errorf("grammar:\n%s\nwant:\n%s", got, wantG)
	}
	if err := res.Grammar.Check(); err != nil {
		t.Error(err)
	}
}

func checkInputs(cs []Check, accepted bool) []string {
	var out []string
	for _, c := range cs {
		if c.Accepted == accepted {
			out = append(out, c.Input)
		}
	}
	return out
}

// TestPaperCharGeneralization is section 6.2: with the alphabet of Figure
// 1, character generalization widens h and i to a–z (the two equal classes
// of (a–z + a–z)* print as one).
func TestPaperCharGeneralization(t *testing.T) {
	alphabet := []byte("abcdefghijklmnopqrstuvwxyz</>")
	res, err := Synthesize(context.Background(), [][]byte{[]byte("<a>hi</a>")}, oracle.Func(xmlOracle),
		WithAlphabet(alphabet), WithRecursion(false), WithExtraContexts(false))
	if err != nil {
		t.Fatal(err)
	}
	wantG := "<start> ::= <rep1> ;\n\n<rep1> ::= (\"<a>\" <rep1> \"</a>\")* | [a-z]* ;\n"
	if got := res.Grammar.String(); got != wantG {
		t.Errorf("grammar:\n%s\nwant:\n%s", got, wantG)
	}
	_, p := compileParser(t, res.Grammar)
	for _, s := range []string{"", "abc", "<a></a>", "<a><a>yz</a></a><a>q</a>"} {
		if p.Recognize([]byte(s)) != nil {
			t.Errorf("mined grammar rejects %q", s)
		}
	}
	for _, s := range []string{"<a>", "</a>", "A", "<b></b>"} {
		if p.Recognize([]byte(s)) == nil {
			t.Errorf("mined grammar accepts %q", s)
		}
	}
}

// compileParser compiles g and returns its graph and an Earley parser.
func compileParser(t *testing.T, g *grammar.Grammar) (*grammar.Graph, *grammar.Parser) {
	t.Helper()
	gr, err := grammar.Compile(g)
	if err != nil {
		t.Fatal(err)
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		t.Fatal(err)
	}
	return gr, p
}
