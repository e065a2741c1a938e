package pipeline

import (
	"bytes"
	"context"
	_ "embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/tools/txtar"

	"github.com/seed72891827/kfuzz/internal/gomod"
	"github.com/seed72891827/kfuzz/internal/measure"
)

//go:generate go test -run=^TestCalcArchive$ -update

// calcArchive holds the calc example, examples/calc of the kfuzz repository
// (its Go files and its testdata corpus), as a txtar archive: the embedding
// cannot reach the example's directory from here, and no package outside
// examples/ imports an example. TestCalcArchive checks that the archive holds
// what examples/calc holds; go generate brings it up to date.
//
//go:embed calc.txtar
var calcArchive []byte

// CalcModule is the module path of the calc example written by
// WriteCalcModule; its package is the module's root package.
const CalcModule = "example.com/calc"

// calcImportPath is the import path of the calc example in the kfuzz
// repository, which its test file imports.
const calcImportPath = gomod.KfuzzModule + "/examples/calc"

// WriteCalcModule writes the calc example into dir, which must be empty or
// not exist, as the module CalcModule: the package with its fuzz tests and
// their testdata corpus, and a go.mod that requires kfuzz from src (see
// gomod.WriteGoMod).
func WriteCalcModule(ctx context.Context, dir string, src gomod.Source) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("%s is not empty", dir)
	}
	for _, f := range txtar.Parse(calcArchive).Files {
		dst := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(dst), 0o777); err != nil {
			return fmt.Errorf("writing the calc example: %w", err)
		}
		data := f.Data
		if strings.HasSuffix(f.Name, ".go") {
			data = bytes.ReplaceAll(data, []byte(`"`+calcImportPath+`"`), []byte(`"`+CalcModule+`"`))
		}
		if err := os.WriteFile(dst, data, 0o666); err != nil {
			return fmt.Errorf("writing the calc example: %w", err)
		}
	}
	return gomod.WriteGoMod(ctx, dir, CalcModule, src)
}

// OpenCalc writes the calc example into dir as WriteCalcModule does and
// opens the session of its fuzz test FuzzCalc, built in its own module
// (GOWORK=off, so that no go.work of the surroundings takes part).
func OpenCalc(ctx context.Context, dir string, src gomod.Source) (*Session, error) {
	if err := WriteCalcModule(ctx, dir, src); err != nil {
		return nil, err
	}
	return Open(ctx, measure.Config{Dir: dir, Target: "FuzzCalc", Env: append(os.Environ(), "GOWORK=off")})
}
