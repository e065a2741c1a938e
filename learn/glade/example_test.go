package glade_test

import (
	"context"
	"fmt"

	"github.com/seed72891827/kfuzz/learn/glade"
	"github.com/seed72891827/kfuzz/learn/oracle"
)

// The paper's example: from the seed <a>hi</a> and an oracle for
// A → (a + … + z + <a> A </a>)*, GLADE learns the recursive grammar of
// Figures 2 and 3 (character generalization and the recursion stage off).
func Example() {
	xml := func(b []byte) bool {
		depth := 0
		for i := 0; i < len(b); {
			switch {
			case b[i] >= 'a' && b[i] <= 'z':
				i++
			case string(b[i:min(i+3, len(b))]) == "<a>":
				depth, i = depth+1, i+3
			case string(b[i:min(i+4, len(b))]) == "</a>" && depth > 0:
				depth, i = depth-1, i+4
			default:
				return false
			}
		}
		return depth == 0
	}
	res, err := glade.Synthesize(context.Background(), [][]byte{[]byte("<a>hi</a>")}, oracle.Func(xml),
		glade.WithCharGeneralization(false), glade.WithRecursion(false))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(res.Grammar)
	fmt.Println(res.Stats.Merges, "merge")
	// Output:
	// <start> ::= <rep1> ;
	//
	// <rep1> ::= ("<a>" <rep1> "</a>")* | ("h" | "i")* ;
	// 1 merge
}

// The tree stage learns nested lists from three seeds: the seeds become
// trees with a node per bracket pair, and nonterminals merge where the
// oracle accepts each one's strings in the other's places.
func ExampleWithTrees() {
	// lists of lower-case letters, nested, one space between elements
	var list func(b []byte, i int) int // the end of the element at i, or -1
	list = func(b []byte, i int) int {
		if i < len(b) && b[i] >= 'a' && b[i] <= 'z' {
			return i + 1
		}
		if i >= len(b) || b[i] != '(' {
			return -1
		}
		for i++; ; i++ {
			if i = list(b, i); i < 0 || i >= len(b) {
				return -1
			}
			if b[i] == ')' {
				return i + 1
			}
			if b[i] != ' ' {
				return -1
			}
		}
	}
	accept := func(b []byte) bool { return list(b, 0) == len(b) }
	seeds := [][]byte{[]byte("(a (b c))"), []byte("x"), []byte("((y) z)")}
	res, err := glade.Synthesize(context.Background(), seeds, oracle.Func(accept), glade.WithTrees(true))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(res.Grammar)
	// Output:
	// <start> ::= "(" <n1> ")" | [a-z] ;
	//
	// <n1> ::= <n1> " " <n1> | "(" <n1> ")" | [a-z] | <start> ;
}
