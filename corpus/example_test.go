package corpus_test

import (
	"errors"
	"fmt"
	"log"
	"math"
	"os"
	"path/filepath"

	"github.com/seed72891827/kfuzz/corpus"
)

func ExampleMarshal() {
	data, err := corpus.Marshal([]byte("GET /\x00"), "héllo", uint8(7), rune(-1), 0.5, math.Inf(1), int16(-3))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Print(string(data))
	// Output:
	// go test fuzz v1
	// []byte("GET /\x00")
	// string("héllo")
	// byte('\a')
	// int32(-1)
	// float64(0.5)
	// float64(+Inf)
	// int16(-3)
}

func ExampleUnmarshal() {
	values, err := corpus.Unmarshal([]byte("go test fuzz v1\n[]byte(\"\\xff\")\nuint8(0x10)\nmath.Float32frombits(0x7fc00001)\n"))
	if err != nil {
		log.Fatal(err)
	}
	for _, v := range values {
		fmt.Printf("%T %v\n", v, v)
	}
	// Output:
	// []uint8 [255]
	// uint8 16
	// float32 NaN
}

func ExampleSyntaxError() {
	_, err := corpus.Unmarshal([]byte("go test fuzz v1\nint8(200)\n"))
	var se *corpus.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Line, se.Col)
		fmt.Println(se.Msg)
	}
	fmt.Println(err)
	// Output:
	// 2 6
	// expected a value in the range of int8, found 200
	// corpus: line 2:6: expected a value in the range of int8, found 200
}

func ExampleAdd() {
	pkgDir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(pkgDir)

	dir := corpus.TestdataDir(pkgDir, "FuzzParse")
	name, added, err := corpus.Add(dir, []byte("seed"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(name, added)
	// Adding the same values again does nothing.
	name, added, err = corpus.Add(dir, []byte("seed"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(name, added)

	// go test runs the entry as FuzzParse/<name>.

	// Output:
	// 74d0dd664a7c4e93 true
	// 74d0dd664a7c4e93 false
}

func ExampleDir_Add() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)

	d, err := corpus.OpenDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, seed := range []string{"a", "b", "a"} {
		if _, added, err := d.Add([]byte(seed)); err != nil {
			log.Fatal(err)
		} else {
			fmt.Println(seed, added)
		}
	}
	// Output:
	// a true
	// b true
	// a false
}

func ExampleReadDir() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if _, _, err := corpus.Add(dir, "x", 42); err != nil {
		log.Fatal(err)
	}
	bad := filepath.Join(dir, "handwritten")
	if err := os.WriteFile(bad, []byte("go test fuzz v1\nstring(\"y\")\nint(forty-two)\n"), 0o666); err != nil {
		log.Fatal(err)
	}

	entries, err := corpus.ReadDir(dir)
	for _, e := range entries {
		fmt.Println(e.Name, e.Values)
	}
	var se *corpus.SyntaxError
	if errors.As(err, &se) {
		fmt.Printf("%s:%d:%d: %s\n", filepath.Base(se.File), se.Line, se.Col, se.Msg)
	}
	// Output:
	// f17e7981da86f645 [x 42]
	// handwritten:3:10: expected ")" after the value, found "-"
}

func ExampleCacheDir() {
	gocache := "/home/gopher/.cache/go-build" // or corpus.GoCache(ctx)
	fmt.Println(filepath.ToSlash(corpus.CacheDir(gocache, "example.com/parser", "FuzzParse")))
	// Output:
	// /home/gopher/.cache/go-build/fuzz/example.com/parser/FuzzParse
}
