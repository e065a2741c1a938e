package instrument_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/tools/cover"

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

// A profile that go test -coverprofile wrote (here, rt.Packages ran with
// nothing registered) mapped onto functions.
func ExampleLoadTable_importProfiles() {
	table, err := instrument.LoadTable(context.Background(), instrument.Config{Patterns: []string{"github.com/seed72891827/kfuzz/coverage/rt"}})
	if err != nil {
		log.Fatal(err)
	}
	profiles, err := cover.ParseProfilesFromReader(strings.NewReader(`mode: set
github.com/seed72891827/kfuzz/coverage/rt/rt.go:127.28,128.6 1 1
github.com/seed72891827/kfuzz/coverage/rt/rt.go:128.6,131.32 3 1
github.com/seed72891827/kfuzz/coverage/rt/rt.go:131.32,133.4 1 1
`))
	if err != nil {
		log.Fatal(err)
	}
	counts, err := table.ImportProfiles(profiles)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(counts.Funcs())
	for i := range table.Len() {
		covered, total := counts.Statements(i)
		fmt.Printf("%s: %d of %d statements\n", table.Func(i).Name, covered, total)
	}
	// Output:
	// {github.com/seed72891827/kfuzz/coverage/rt.Packages}
	// github.com/seed72891827/kfuzz/coverage/rt.Register: 0 of 11 statements
	// github.com/seed72891827/kfuzz/coverage/rt.newPackage: 0 of 4 statements
	// github.com/seed72891827/kfuzz/coverage/rt.Packages: 5 of 23 statements
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
