// Package calc is a small interpreter of one-line commands, made to exercise
// the coverage instrumentation: methods, generics, closures, labels, goto,
// select, type switches, else-if chains, init functions and panics.
package calc

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
)

var errEmpty = errors.New("empty input")

// While Tracing is set, traced functions append their program counter to
// Traced, so that tests can compare function names with the runtime's.
var (
	Tracing = true
	Traced  []uintptr
	traceMu sync.Mutex
)

func note() {
	traceMu.Lock()
	defer traceMu.Unlock()
	if Tracing {
		var pc [1]uintptr
		runtime.Callers(2, pc[:])
		Traced = append(Traced, pc[0])
	}
}

// Package-level closures are named by initialization order: late is
// initialized after early even though it is declared first.
var late = early + func() int { note(); return 1 }()
var early = func() int { note(); return 2 }()

var inits []string

func init() { inits = append(inits, "first") }

func init() {
	inits = append(inits, func() string { note(); return "second" }())
}

// Run interprets one command and returns its result.
func Run(input string) (string, error) {
	note()
	f := strings.Fields(input)
	if len(f) == 0 {
		return "", errEmpty
	}
	args := f[1:]
	switch f[0] {
	case "add":
		return strconv.Itoa(Sum(nums(args))), nil
	case "max":
		return fmt.Sprint(Max(nums(args)...)), nil
	case "fib":
		if len(args) != 1 {
			return "", fmt.Errorf("fib wants 1 argument")
		}
		n, _ := strconv.Atoi(args[0])
		return strconv.Itoa(fib(n)), nil
	case "sort":
		s := &Stack[string]{}
		for _, a := range args {
			s.Push(a)
		}
		return strings.Join(s.Sorted(), " "), nil
	case "classify":
		var out []string
		for _, a := range args {
			out = append(out, Classify(parse(a)))
		}
		return strings.Join(out, " "), nil
	case "count":
		return strconv.Itoa(countdown(len(args))), nil
	case "pipe":
		return strconv.Itoa(pipe(nums(args))), nil
	case "evens":
		var out []string
		for v := range Evens(nums(args)) {
			out = append(out, strconv.Itoa(v))
		}
		return strings.Join(out, " "), nil
	case "panic":
		explode(args)
	case "point":
		p := Point{len(args), 2 * len(args)}
		return p.String() + " " + fmt.Sprint(p.Norm1()), nil
	}
	return "", fmt.Errorf("unknown command %q", f[0])
}

func nums(args []string) []int {
	var v []int
	for _, a := range args {
		n, err := strconv.Atoi(a)
		if err != nil {
			continue
		}
		v = append(v, n)
	}
	return v
}

// Sum adds numbers.
func Sum(v []int) int {
	note()
	total := 0
	add := func(n int) {
		note()
		total += n
	}
	for _, n := range v {
		add(n)
	}
	return total
}

// Number is what Max accepts.
type Number interface{ ~int | ~float64 }

// Max returns the largest of v, or the zero value.
func Max[T Number](v ...T) T {
	note()
	var m T
	for i, x := range v {
		if i == 0 || x > m {
			m = x
		}
	}
	return m
}

func fib(n int) int {
	note()
	if n < 2 {
		return n
	}
	a, b := 0, 1
	for i := 1; i < n; i++ {
		a, b = b, a+b
	}
	return b
}

// Stack is a generic stack.
type Stack[T any] struct{ items []T }

// Push adds x.
func (s *Stack[T]) Push(x T) {
	note()
	s.items = append(s.items, x)
}

// Sorted returns the items sorted by their printed form.
func (s *Stack[T]) Sorted() []string {
	note()
	out := make([]string, len(s.items))
	for i, x := range s.items {
		out[i] = fmt.Sprint(x)
	}
	sort.Slice(out, func(i, j int) bool {
		return func() bool { note(); return out[i] < out[j] }()
	})
	return out
}

func parse(s string) any {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	} else if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	} else if s == "true" || s == "false" {
		return s == "true"
	}
	return s
}

// Classify names the kind and sign of a value.
func Classify(v any) string {
	note()
	switch x := v.(type) {
	case int:
		if x < 0 {
			return "negative"
		} else if x == 0 {
			return "zero"
		} else {
			return "positive"
		}
	case float64:
		return "float"
	case bool:
		return "bool"
	default:
		return "text"
	}
}

func countdown(n int) int {
	note()
	steps := 0
loop:
	if n > 0 {
		n--
		steps++
		goto loop
	}
outer:
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			if j == 2 {
				continue outer
			}
			if i == 2 {
				break outer
			}
			steps++
		}
	}
	return steps
}

func pipe(v []int) int {
	note()
	in, out := make(chan int), make(chan int)
	done := make(chan struct{})
	go func() {
		note()
		defer close(out)
		for x := range in {
			out <- x * x
		}
	}()
	go func() {
		defer close(in)
		for _, x := range v {
			select {
			case in <- x:
			case <-done:
				return
			}
		}
	}()
	total := 0
	for {
		select {
		case x, ok := <-out:
			if !ok {
				close(done)
				return total
			}
			total += x
		}
	}
}

// Evens yields the even numbers of v.
func Evens(v []int) iter.Seq[int] {
	note()
	return func(yield func(int) bool) {
		note()
		for _, x := range v {
			if x%2 == 0 && !yield(x) {
				return
			}
		}
	}
}

func explode(args []string) {
	note()
	if len(args) > 0 {
		panic("explode: " + args[0])
	}
	var m map[string]int
	m["boom"]++ // a runtime error
}

// Point is a point in the plane.
type Point struct{ X, Y int }

// String formats p.
func (p Point) String() string {
	note()
	return fmt.Sprintf("(%d,%d)", p.X, p.Y)
}

// Norm1 returns the Manhattan norm.
func (p *Point) Norm1() int {
	note()
	abs := func(n int) int {
		if n < 0 {
			return -n
		}
		return n
	}
	return abs(p.X) + abs(p.Y)
}

func _() { panic("never compiled into anything that runs") }
