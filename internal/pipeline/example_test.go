package pipeline_test

import (
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/seed72891827/kfuzz/internal/pipeline"
)

func ExampleWriteFile() {
	dir, err := os.MkdirTemp("", "example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	model := filepath.Join(dir, "kfuzz-FuzzCalc.model.json")

	fmt.Println(pipeline.WriteFile(model, []byte("{}\n"), false))
	// A second write is refused unless it may replace the file.
	err = pipeline.WriteFile(model, []byte("{\"v\": 2}\n"), false)
	fmt.Println(errors.Is(err, pipeline.ErrExist))
	fmt.Println(pipeline.WriteFile(model, []byte("{\"v\": 2}\n"), true))
	data, _ := os.ReadFile(model)
	fmt.Print(string(data))
	// Output:
	// <nil>
	// true
	// <nil>
	// {"v": 2}
}
