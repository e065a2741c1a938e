package instrument_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"

	"github.com/seed72891827/kfuzz/coverage/instrument"
)

// The functions and blocks of package rt, as instrumentation would count
// them.
func ExampleLoadTable() {
	table, err := instrument.LoadTable(context.Background(), instrument.Config{Patterns: []string{"github.com/seed72891827/kfuzz/coverage/rt"}})
	if err != nil {
		log.Fatal(err)
	}
	for i := range table.Len() {
		f := table.Func(i)
		fmt.Printf("%s:%d %s\n", f.File, f.Start.Line, f.Name)
	}
	fmt.Println(table.NumBlocks(), "blocks")
	// Output:
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:92 github.com/seed72891827/kfuzz/coverage/rt.Register
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:109 github.com/seed72891827/kfuzz/coverage/rt.newPackage
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:127 github.com/seed72891827/kfuzz/coverage/rt.Packages
	// 23 blocks
}

// How a command measures a fuzz target: instrument the packages, run the
// target's test under the overlay (which reads the counters with
// coverage.Current), and clean up.
func ExampleBuildOverlay() {
	ctx := context.Background()
	cfg := instrument.Config{Dir: "/path/to/module", Patterns: []string{"./..."}}
	ov, err := instrument.BuildOverlay(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer ov.Close()
	fmt.Println(ov.Table.Len(), "functions instrumented in", ov.Table.Packages())

	args := append([]string{"test", "-overlay=" + ov.File, "-run=^FuzzParse$", "-count=1"}, cfg.BuildFlags...)
	cmd := exec.CommandContext(ctx, "go", append(args, "./parser")...)
	cmd.Dir = cfg.Dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatal(err)
	}
}

// Standard-library packages are instrumented in place: the test runs the
// real encoding/json, and inside it coverage.Current("encoding/json")
// measures functions such as encoding/json.(*decodeState).object.
func ExampleBuildOverlay_standardLibrary() {
	ctx := context.Background()
	cfg := instrument.Config{Dir: "/path/to/module", Patterns: []string{"encoding/json", "net/url"}}
	ov, err := instrument.BuildOverlay(ctx, cfg)
	if err != nil {
		log.Fatal(err)
	}
	defer ov.Close()
	if _, ok := ov.Table.Lookup("encoding/json.(*decodeState).object"); ok {
		fmt.Println("encoding/json is instrumented")
	}
	cmd := exec.CommandContext(ctx, "go", "test", "-overlay="+ov.File, "-run=^TestDecode$", "-count=1", "./decoder")
	cmd.Dir = cfg.Dir
	cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		log.Fatal(err)
	}
}
