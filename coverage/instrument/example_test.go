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
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:39 github.com/seed72891827/kfuzz/coverage/rt.Register
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:62 github.com/seed72891827/kfuzz/coverage/rt.Packages
	// 10 blocks
}

// A profile that go test -coverprofile wrote (here, one block of
// rt.Packages ran) mapped onto functions.
func ExampleLoadTable_importProfiles() {
	table, err := instrument.LoadTable(context.Background(), instrument.Config{Patterns: []string{"github.com/seed72891827/kfuzz/coverage/rt"}})
	if err != nil {
		log.Fatal(err)
	}
	profiles, err := cover.ParseProfilesFromReader(strings.NewReader(`mode: set
github.com/seed72891827/kfuzz/coverage/rt/rt.go:62.28,63.36 1 1
`))
	if err != nil {
		log.Fatal(err)
	}
	counts, err := table.ImportProfiles(profiles)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(counts.Funcs())
	packages, _ := table.Lookup("github.com/seed72891827/kfuzz/coverage/rt.Packages")
	covered, total := counts.Statements(packages)
	fmt.Printf("%d of %d statements\n", covered, total)
	counts.WriteProfile(os.Stdout)
	// Output:
	// {github.com/seed72891827/kfuzz/coverage/rt.Packages}
	// 1 of 3 statements
	// mode: count
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:39.77,41.22 2 0
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:41.22,45.3 1 0
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:46.2,46.6 1 0
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:46.6,49.17 3 0
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:49.17,52.4 2 0
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:53.3,54.42 2 0
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:54.42,56.4 1 0
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:62.28,63.36 1 1
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:63.36,65.3 1 0
	// github.com/seed72891827/kfuzz/coverage/rt/rt.go:66.2,66.12 1 0
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
