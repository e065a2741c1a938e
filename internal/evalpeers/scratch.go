package evalpeers

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	"github.com/seed72891827/kfuzz/internal/gocmd"
	"github.com/seed72891827/kfuzz/internal/gomod"
)

// The versions of the peers that the scratch modules require from the
// module proxy. They are never dependencies of kfuzz's own go.mod.
const (
	RapidVersion   = "v1.3.0"
	ABNFVersion    = "v0.5.5"
	HeadersVersion = "v0.0.0-20230811130428-ced1acdcaa24"
	G118Version    = "v0.0.0-20250520111509-a70c2aa677fa"
)

// scratchModule is the module path of the scratch modules.
const scratchModule = "kfuzzpeers"

//go:embed harness
var harnessFS embed.FS

// A Scratch is the pair of scratch modules the evaluation writes: Fuzz,
// whose subject copies carry the seeded faults (the tools fuzz it), and
// Cover, with clean copies (the corpora are measured on it).
type Scratch struct {
	Fuzz, Cover string
}

// WriteScratch writes the scratch modules into work/fuzz and work/cover,
// for the subjects: the subject copies (taken from the kfuzz module at root
// and from GOROOT), the harness of every tool, go.mod requiring kfuzz (a
// replace to root) and the peers, and go.sum (go mod tidy, which may fetch
// the peers from the module proxy). The fuzz module also requires
// go-118-fuzz-build's testing shim and holds libFuzzer packages lf/NAME.
func WriteScratch(ctx context.Context, root, work string, subjects []Subject) (*Scratch, error) {
	goroot, err := goEnv(ctx, "GOROOT")
	if err != nil {
		return nil, err
	}
	s := &Scratch{Fuzz: filepath.Join(work, "fuzz"), Cover: filepath.Join(work, "cover")}
	for _, dir := range []string{s.Fuzz, s.Cover} {
		mutated := dir == s.Fuzz
		if err := os.MkdirAll(dir, 0o777); err != nil {
			return nil, err
		}
		for _, sub := range subjects {
			if err := writeSubject(root, goroot, dir, sub, mutated); err != nil {
				return nil, err
			}
		}
		if err := gomod.WriteGoMod(ctx, dir, scratchModule, gomod.Source{Dir: root}); err != nil {
			return nil, err
		}
		run := gocmd.Runner{Dir: dir, Env: append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")}
		if _, err := run.Go(ctx, "get", "pgregory.net/rapid@"+RapidVersion, "github.com/pandatix/go-abnf@"+ABNFVersion,
			"github.com/AdaLogics/go-fuzz-headers@"+HeadersVersion); err != nil {
			return nil, err
		}
		if _, err := run.Go(ctx, "mod", "tidy"); err != nil {
			return nil, err
		}
		if mutated {
			// Only the rewritten libFuzzer package imports the shim,
			// after go mod tidy: require it by hand, as OSS-Fuzz
			// projects do.
			if _, err := run.Go(ctx, "get", "github.com/AdamKorcz/go-118-fuzz-build/testing@"+G118Version); err != nil {
				return nil, err
			}
		}
	}
	return s, nil
}

// writeSubject writes the copy of sub (mutated or clean) and its harness
// packages into the module at dir.
func writeSubject(root, goroot, dir string, sub Subject, mutated bool) error {
	subjDir := filepath.Join(dir, "subj", sub.Name)
	fzDir := filepath.Join(dir, "fz", sub.Name)
	for _, d := range []string{subjDir, fzDir} {
		if err := os.MkdirAll(d, 0o777); err != nil {
			return err
		}
	}
	for _, src := range sub.Sources {
		path := filepath.Join(root, filepath.FromSlash(src))
		if rest, ok := strings.CutPrefix(src, "$GOROOT/"); ok {
			path = filepath.Join(goroot, "src", filepath.FromSlash(rest))
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if mutated {
			if data, err = Mutate(filepath.Base(path), data, FaultsOf(sub.Name)); err != nil {
				return err
			}
		}
		if err := os.WriteFile(filepath.Join(subjDir, filepath.Base(path)), data, 0o666); err != nil {
			return err
		}
	}
	if mutated {
		if err := os.WriteFile(filepath.Join(subjDir, "kfuzzfault.go"), fmt.Appendf(nil, faultFile, sub.Package, FaultsEnv, FaultPanic), 0o666); err != nil {
			return err
		}
	}
	var constraints []string
	for _, c := range sub.Constraints {
		data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(c)))
		if err != nil {
			return err
		}
		constraints = append(constraints, string(data))
	}
	data := struct {
		Subject
		Constraints []string
		Faults      []Fault
		FaultPanic  string
	}{sub, constraints, FaultsOf(sub.Name), FaultPanic}
	files := map[string]string{
		filepath.Join(fzDir, "target.go"):      "harness/" + sub.Name + "_target.go.txt",
		filepath.Join(fzDir, "gen_test.go"):    "harness/" + sub.Name + "_gen_test.go.txt",
		filepath.Join(fzDir, "fuzz_test.go"):   "harness/fuzz_test.go.tmpl",
		filepath.Join(fzDir, "faults_test.go"): "harness/faults_test.go.tmpl",
	}
	if mutated {
		files[filepath.Join(dir, "lf", sub.Name, "lf.go")] = "harness/libfuzzer.go.tmpl"
	}
	for out, in := range files {
		text, err := harnessFS.ReadFile(in)
		if err != nil {
			return err
		}
		if strings.HasSuffix(in, ".tmpl") {
			t, err := template.New(in).Parse(string(text))
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := t.Execute(&b, data); err != nil {
				return err
			}
			text = b.Bytes()
		}
		if err := os.MkdirAll(filepath.Dir(out), 0o777); err != nil {
			return err
		}
		if err := os.WriteFile(out, text, 0o666); err != nil {
			return err
		}
	}
	return nil
}

// goEnv returns the value of one go environment variable.
func goEnv(ctx context.Context, name string) (string, error) {
	vars, err := (gocmd.Runner{}).GoEnv(ctx, name)
	if err != nil {
		return "", err
	}
	if vars[name] == "" {
		return "", fmt.Errorf("go env %s is empty", name)
	}
	return vars[name], nil
}

// CheckFaults runs the scratch modules' TestFaults: every fault's
// triggering input panics with that fault in the mutated copies and not at
// all in the clean ones, and no example panics.
func (s *Scratch) CheckFaults(ctx context.Context) error {
	for _, c := range []struct {
		dir   string
		clean bool
	}{{s.Fuzz, false}, {s.Cover, true}} {
		env := append(os.Environ(), "GOWORK=off", FaultsEnv+"=")
		if c.clean {
			env = append(env, "KFUZZ_EVAL_CLEAN=1")
		}
		if out, err := (gocmd.Runner{Dir: c.dir, Env: env}).Go(ctx, "test", "-count=1", "-run=^TestFaults$", "./fz/..."); err != nil {
			return fmt.Errorf("%v\n%s", err, out)
		}
	}
	return nil
}
