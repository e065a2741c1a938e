package oracle_test

import (
	"context"
	"fmt"
	"strconv"

	"github.com/seed72891827/kfuzz/learn/oracle"
)

// An in-process oracle over strconv.Atoi, cached and counted, answering a
// batch on all cores.
func Example() {
	atoi := oracle.Func(func(b []byte) bool {
		_, err := strconv.Atoi(string(b))
		return err == nil
	})
	counted := oracle.Counted(atoi)
	o := oracle.Cached(counted)
	oks, err := oracle.AcceptAll(context.Background(), o, [][]byte{[]byte("12"), []byte("x"), []byte("12")})
	if err != nil {
		panic(err)
	}
	fmt.Println(oks, counted.Stats().Queries, o.Hits())
	// Output: [true false true] 2 1
}
