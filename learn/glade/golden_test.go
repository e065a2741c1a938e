package glade

import (
	"context"
	"testing"

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

func TestPaperExampleDraft(t *testing.T) {
	res, err := Synthesize(context.Background(), [][]byte{[]byte("<a>hi</a>")}, oracle.Func(xmlOracle, oracle.Timeout(0)),
		WithTrace(true), WithCharGeneralization(false), WithRecursion(false))
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range res.Trace {
		t.Logf("%s %s %s ctx=%q chosen=%s", st.Name, st.Language, st.Bracket, st.Context, st.Chosen)
		for _, c := range st.Candidates {
			t.Logf("   %s %v", c.Generalization, c.Checks)
		}
	}
	t.Logf("\n%s\n%+v", res.Grammar, res.Stats)
}
