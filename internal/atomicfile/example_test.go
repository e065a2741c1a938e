package atomicfile_test

import (
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path/filepath"

	"github.com/seed72891827/kfuzz/internal/atomicfile"
)

func ExampleWrite() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	model := filepath.Join(dir, "kfuzz-FuzzCalc.model.json")

	fmt.Println(atomicfile.Write(model, []byte("{}\n"), false))
	// A second write is refused unless it may replace the file.
	err = atomicfile.Write(model, []byte("{\"v\": 2}\n"), false)
	fmt.Println(errors.Is(err, fs.ErrExist))
	fmt.Println(atomicfile.Write(model, []byte("{\"v\": 2}\n"), true))
	data, _ := os.ReadFile(model)
	fmt.Print(string(data))
	// Output:
	// <nil>
	// true
	// <nil>
	// {"v": 2}
}
