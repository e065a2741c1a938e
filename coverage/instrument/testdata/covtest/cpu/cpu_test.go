package cpu

import (
	"fmt"
	"testing"
)

var exprs = func() []string {
	var s []string
	for i := range 100 {
		s = append(s, fmt.Sprintf("(%d + %d * (%d - %d)) / (1 + %d %% 7) - -%d", i, i*3, i+17, i/2, i, i%5))
	}
	return s
}()

func TestEval(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want int
	}{{"1 + 2 * 3", 7}, {"(1 + 2) * 3", 9}, {"-4 % 3", -1}, {"10 / (5 - 3)", 5}} {
		if got, err := Eval(tt.in); err != nil || got != tt.want {
			t.Errorf("Eval(%q) = %d, %v", tt.in, got, err)
		}
	}
	for _, bad := range []string{"1 +", "(1", "1 / 0", "1 2", "*"} {
		if _, err := Eval(bad); err == nil {
			t.Errorf("Eval(%q) succeeded", bad)
		}
	}
}

// BenchmarkEval evaluates 100 expressions and hashes them.
func BenchmarkEval(b *testing.B) {
	for b.Loop() {
		for _, e := range exprs {
			v, _ := Eval(e)
			Hash([]byte(e))
			_ = v
		}
	}
}
