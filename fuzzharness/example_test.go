package fuzzharness_test

import (
	"fmt"

	"github.com/seed72891827/kfuzz/fuzzharness"
	"github.com/seed72891827/kfuzz/fuzzharness/grammar"
)

// A fuzz test wraps its target in a harness:
//
//	func FuzzCalc(f *testing.F) {
//		g := grammar.MustBuiltin("expr")
//		fuzzharness.New(f, g, fuzzharness.WithExamples("(x+1)*2")).
//			Fuzz(func(t *testing.T, in fuzzharness.Input) {
//				if _, err := calc.Eval(in.String(), nil); err != nil { ... }
//			})
//	}
//
// go test -fuzz=FuzzCalc then mutates bytes, and the harness decodes each
// byte string with its Codec into an input of the grammar before calling
// the target. This example shows that decoding.
func ExampleNew() {
	gr := grammar.MustCompile(grammar.MustBuiltin("expr"))
	codec, err := fuzzharness.NewCodec(gr)
	if err != nil {
		panic(err)
	}
	for _, data := range [][]byte{
		nil,                                     // no bytes: the shortest input
		{0x01},                                  // the expression is a sum, closed off shortest
		{0x01, 0x00, 0x00, 0x06, 0x00, 0x07},    // its left operand a number of one digit, 7
		{0x01, 0x00, 0x00, 0x06, 0x02, 0x07},    // ... of three digits
		{0x01, 0x00, 0x00, 0x06, 0x00, 0x07, 1}, // the operator is the second one
		{0x01, 0x00, 0x00, 0x06, 0x00, 0x11},    // 0x11 = 17 wraps around the ten digits
	} {
		fmt.Printf("% x -> %q\n", data, codec.Decode(data))
	}
	// Output:
	//  -> "x"
	// 01 -> "x+x"
	// 01 00 00 06 00 07 -> "7+x"
	// 01 00 00 06 02 07 -> "700+x"
	// 01 00 00 06 00 07 01 -> "7-x"
	// 01 00 00 06 00 11 -> "7+x"
}

// Example inputs and generated trees encode to bytes that decode to exactly
// the same tree, so they can be seeds of the fuzzer.
func ExampleCodec_Encode() {
	gr := grammar.MustCompile(grammar.MustBuiltin("expr"))
	codec, err := fuzzharness.NewCodec(gr)
	if err != nil {
		panic(err)
	}
	tree, err := codec.Parse("(x+1)*2")
	if err != nil {
		panic(err)
	}
	data, err := codec.Encode(tree)
	if err != nil {
		panic(err)
	}
	in := codec.Decode(data)
	fmt.Printf("%d bytes -> %q, same tree: %v\n", len(data), in, in.Tree().Equal(tree))

	_, err = codec.Parse("(x+1)*")
	fmt.Println(err)
	// Output:
	// 18 bytes -> "(x+1)*2", same tree: true
	// 1:7: unexpected EOF, expected one of "(", "+", "++", "-", "--", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "x", "y", "z"
}

// Seeds returns the seeds a harness adds: here the 1-path covering forest,
// in which every symbol of the grammar occurs, and an example. A plain
// string fuzz target can add their text to start from the same inputs.
func ExampleSeeds() {
	g, err := grammar.Parse("sign.bnf", []byte(`
		<num>  ::= "-"? <digits> ;
		<digits> ::= [0-9]+ | "0x" [0-9a-f]+ ;
	`))
	if err != nil {
		panic(err)
	}
	seeds, err := fuzzharness.Seeds(grammar.MustCompile(g), fuzzharness.WithKPathSeeds(1), fuzzharness.WithExamples("-0xff"))
	if err != nil {
		panic(err)
	}
	for _, t := range seeds {
		fmt.Printf("%q\n", t)
	}
	// Output:
	// "-0"
	// "0x0"
	// "-0xff"
}

// With WithMaxEdits, the bytes after a tree's decisions edit its text: here
// one edit (first tail byte 1) of kind 1 (delete) at the relative position
// 0x6000 (3/8 of the way, byte 3 of 7) removes the comma.
func ExampleWithMaxEdits() {
	gr := grammar.MustCompile(grammar.MustBuiltin("json"))
	codec, err := fuzzharness.NewCodec(gr, fuzzharness.WithMaxEdits(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	tree, err := codec.Parse(`[10,20]`)
	if err != nil {
		fmt.Println(err)
		return
	}
	data, err := codec.Encode(tree)
	if err != nil {
		fmt.Println(err)
		return
	}
	data = append(data, make([]byte, codec.Decode(data).Used()-len(data))...) // the zeros Encode leaves out
	in := codec.Decode(append(data, 1, 1, 0x60, 0x00))
	fmt.Printf("%s edited=%v tree=%s\n", in, in.Edited(), in.Original())
	// Output: [1020] edited=true tree=[10,20]
}

// With WithInvalidShare, a share of the inputs reach the target with one
// near-valid mutation of their valid text, here half of them for the sake
// of the example; a fuzz test would use a small share such as 0.1. The
// hash of the fuzzer's bytes decides which inputs and how, so the same
// bytes give the same input. The target tells them by Edited, and
// Original is the valid text.
func ExampleWithInvalidShare() {
	g := grammar.MustBuiltin("expr")
	for _, data := range [][]byte{{0x01}, {0x01, 0x00, 0x01}, {0x01, 0x00, 0x02}, {0x01, 0x00, 0x03}} {
		fuzzharness.New(oneInput{data: data}, g, fuzzharness.WithInvalidShare(0.5)).Fuzz(func(t *myT, in fuzzharness.Input) {
			fmt.Printf("%q edited=%v original=%q\n", in, in.Edited(), in.Original())
		})
	}
	// Output:
	// "x+x" edited=false original="x+x"
	// "*x+x" edited=true original="x*x+x"
	// "+x" edited=true original="x+x"
	// "x*x+x" edited=false original="x*x+x"
}
