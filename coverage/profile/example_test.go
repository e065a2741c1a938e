package profile_test

import (
	"context"
	"fmt"
	"log"
	"strings"

	"golang.org/x/tools/cover"

	"github.com/seed72891827/kfuzz/coverage/instrument"
	"github.com/seed72891827/kfuzz/coverage/profile"
)

// A profile that go test -coverprofile wrote (here, rt.Packages ran with
// nothing registered) mapped onto functions.
func ExampleImport() {
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
	counts, err := profile.Import(table, profiles)
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
