//go:build cgo

package z3_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/seed72891827/kfuzz/internal/z3"
)

func Example() {
	s, err := z3.NewSolver()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()

	// x is a word of a and b, five long, that contains "ba", and n is
	// the number of its characters as a number.
	for _, d := range []struct {
		name string
		sort z3.Sort
	}{{"x", z3.String}, {"n", z3.Int}} {
		if err := s.Declare(d.name, d.sort); err != nil {
			log.Fatal(err)
		}
	}
	err = s.Assert(
		`(str.in_re x (re.+ (re.union (str.to_re "a") (str.to_re "b"))))`,
		`(= (str.len x) 5)`,
		`(str.contains x `+z3.Quote("ba")+`)`,
		`(= n (str.len x))`,
	)
	if err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := s.Check(ctx)
	fmt.Println(res, err)
	m, err := s.Model()
	if err != nil {
		log.Fatal(err)
	}
	n, _ := m.Int64Value("n")
	x, _ := m.StringValue("x")
	fmt.Println(n, len(x))

	// In a scope of its own, ask for x to start with "c": impossible.
	s.Push()
	s.Assert(`(str.prefixof "c" x)`)
	res, err = s.Check(ctx)
	fmt.Println(res, err)
	s.Pop()

	// Errors carry Z3's message.
	fmt.Println(s.Assert(`(= x 5)`))
	// Output:
	// sat <nil>
	// 5 5
	// unsat <nil>
	// z3: Assert: line 1, column 7: Sorts String and Int are incompatible
}

func ExampleSolver_Models() {
	s, err := z3.NewSolver()
	if err != nil {
		log.Fatal(err)
	}
	defer s.Close()
	s.Declare("i", z3.Int)
	s.Assert("(and (<= 1 i) (<= i 3))")
	models, err := s.Models(context.Background(), 10)
	if err != nil {
		log.Fatal(err)
	}
	sum := int64(0)
	for _, m := range models {
		i, _ := m.Int64Value("i")
		sum += i
	}
	fmt.Println(len(models), sum)
	// Output: 3 6
}
