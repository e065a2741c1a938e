package z3_test

import (
	"fmt"

	"github.com/seed72891827/kfuzz/internal/z3"
)

func ExampleQuote() {
	fmt.Println(z3.Quote(`say "héllo"\`))
	fmt.Println(z3.Quote("\x00\xff"))
	// Output:
	// "say ""h\u{e9}llo""\u{5c}"
	// "\u{0}\u{dcff}"
}
