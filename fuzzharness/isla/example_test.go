package isla_test

import (
	"fmt"
	"strconv"

	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
	"github.com/seed72891827/kfuzz/fuzzharness/isla"
)

// Check XML documents against the balance constraint of the ISLa paper.
func ExampleCheck() {
	gr := grammar.MustCompile(grammar.MustBuiltin("xml"))
	c := isla.MustParse(`<xml-tree>.<xml-open-tag>.<id> = <xml-tree>.<xml-close-tag>.<id>`)
	for _, doc := range []string{`<a><b>x</b></a>`, `<a><b>x</c></a>`} {
		r, err := isla.Check(gr, c, []byte(doc))
		if err != nil {
			fmt.Println(err)
			continue
		}
		if r.Valid {
			fmt.Println(doc, "is valid")
			continue
		}
		f := r.Failure
		fmt.Println(doc, "is invalid:", isla.FormatFormula(f.Formula), "fails in", f.Path[0].Bindings[0])
		for _, b := range f.Bindings {
			fmt.Println("  ", b)
		}
	}
	// Output:
	// <a><b>x</b></a> is valid
	// <a><b>x</c></a> is invalid: (= id id_1) fails in xml_tree = "<b>x</c>" (<xml-tree> at 1:4-12, bytes 3-11)
	//    id = "b" (<id> at 1:5-6, bytes 4-5)
	//    id_1 = "c" (<id> at 1:10-11, bytes 9-10)
}

// Parse translates simplified ISLa into core ISLa.
func ExampleParse() {
	c, err := isla.Parse("title.isla", []byte(`str.len(<title>.<underline>) >= str.len(<title>.<text>)`))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c)
	_, err = isla.Parse("bad.isla", []byte("forall <a> x:\n  x = y"))
	fmt.Println(err)
	// Output:
	// forall <title> title in start: forall <underline> underline in title: (nth_child(1, underline, title) implies forall <text> text in title: (nth_child(1, text, title) implies (>= (str.len underline) (str.len text))))
	// bad.isla:2:7: undefined variable y
}

// luhn is a semantic predicate: luhn(number) holds if the digits of the
// number pass the Luhn checksum.
type luhn struct{}

func (luhn) Name() string         { return "luhn" }
func (luhn) Params() []isla.Param { return []isla.Param{isla.TreeParam} }
func (luhn) Eval(args []isla.Arg) (bool, error) {
	s := args[0].Node.Text()
	sum := 0
	for i := len(s) - 1; i >= 0; i-- {
		d, err := strconv.Atoi(s[i : i+1])
		if err != nil {
			return false, err
		}
		if (len(s)-i)%2 == 0 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0, nil
}

// Users register their own semantic predicates, here a checksum.
func ExampleWithPredicates() {
	g, _ := grammar.Parse("cards.bnf", []byte(`<start> ::= <card> ("," <card>)* ; <card> ::= [0-9]{4,19} ;`))
	gr := grammar.MustCompile(g)
	s, err := isla.Compile(isla.MustParse(`forall <card> c: luhn(c)`), gr, isla.WithPredicates(luhn{}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, in := range []string{"79927398713", "79927398713,4111111111111111", "79927398710"} {
		r, _ := s.Check([]byte(in))
		if r.Valid {
			fmt.Println(in, "valid")
		} else {
			fmt.Println(in, "invalid:", r.Failure.Path[0].Bindings[0].Text)
		}
	}
	// Output:
	// 79927398713 valid
	// 79927398713,4111111111111111 valid
	// 79927398710 invalid: 79927398710
}

// Matched tells the inputs in which a universal quantifier holds only
// vacuously: here, documents without attributes.
func ExampleSpec_Matched() {
	gr := grammar.MustCompile(grammar.MustBuiltin("xml"))
	spec, err := isla.Compile(isla.MustParse(`forall <xml-attribute> a: str.len(a) > 2`), gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	p, err := grammar.NewParser(gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, doc := range []string{`<a>x</a>`, `<a b="c">x</a>`} {
		f, err := p.Parse([]byte(doc))
		if err != nil {
			fmt.Println(err)
			continue
		}
		t := f.Tree()
		fmt.Println(doc, spec.Holds(t), spec.Matched(t))
	}
	// Output:
	// <a>x</a> true [false]
	// <a b="c">x</a> true [true]
}

// NewViewReusing builds the view of one tree after another in the memory
// of the last: here, the number of <id> nodes in each XML document.
func ExampleNewViewReusing() {
	gr := grammar.MustCompile(grammar.MustBuiltin("xml"))
	p, err := grammar.NewParser(gr)
	if err != nil {
		fmt.Println(err)
		return
	}
	lb := isla.NewLabels(gr)
	var v *isla.View
	for _, doc := range []string{`<a>x</a>`, `<a><b>x</b></a>`} {
		f, err := p.Parse([]byte(doc))
		if err != nil {
			fmt.Println(err)
			continue
		}
		t := f.Tree()
		v = isla.NewViewReusing(v, []byte(doc), t, lb, t.Node.Rule, false)
		fmt.Println(doc, len(v.ByLabel[lb.IDs["id"]]))
	}
	// Output:
	// <a>x</a> 2
	// <a><b>x</b></a> 4
}
