package solver

import (
	"math/big"
	"testing"

	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// appendCanon writes variables as their values and sorts the arguments of
// =, at any depth, in place; it reports an = of two equal canonical forms
// and refuses unbound variables.
func TestAppendCanon(t *testing.T) {
	vars := []isla.Variable{{Name: "x", Kind: isla.TreeVar, Slot: 0}, {Name: "y", Kind: isla.TreeVar, Slot: 1},
		{Name: "i", Kind: isla.IntVar, Slot: 2}, {Name: "u", Kind: isla.TreeVar, Slot: 3}}
	e := (*env)(nil).bind(0, 12).bind(1, 7).bind(2, 3)
	x, y, i := &isla.Var{Name: "x"}, &isla.Var{Name: "y"}, &isla.Var{Name: "i"}
	eq := func(a, b isla.Term) *isla.App { return &isla.App{Op: "=", Args: []isla.Term{a, b}} }
	cases := []struct {
		t      isla.Term
		want   string
		eq, ok bool
	}{
		{eq(x, &isla.StrLit{Value: "a"}), `(= "a" #12)`, false, true},
		{eq(&isla.StrLit{Value: "a"}, x), `(= "a" #12)`, false, true},
		{eq(y, x), `(= #12 #7)`, false, true},
		{eq(x, x), `(= #12 #12)`, true, true},
		{eq(&isla.App{Op: "str.++", Args: []isla.Term{y, &isla.StrLit{Value: "bc"}}}, eq(i, &isla.IntLit{Value: big.NewInt(40)})),
			`(= (= $3 40) (str.++ #7 "bc"))`, false, true},
		{&isla.App{Op: "extract", Indices: []int{2, 1}, Args: []isla.Term{&isla.BoolLit{Value: true}}}, `(extract 2 1 true)`, false, true},
		{eq(x, &isla.Var{Name: "u"}), "", false, false},
		{eq(x, &isla.Var{Name: "z"}), "", false, false},
	}
	for _, c := range cases {
		b, gotEq, ok := appendCanon([]byte("prefix "), c.t, vars, e)
		if ok != c.ok || ok && (string(b) != "prefix "+c.want || gotEq != c.eq) {
			t.Errorf("appendCanon(%v) = %q, %v, %v; want %q, %v, %v", c.t, b, gotEq, ok, "prefix "+c.want, c.eq, c.ok)
		}
	}
}
