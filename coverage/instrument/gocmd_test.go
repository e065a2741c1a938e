package instrument

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Helpers for tests that run the go command on temporary modules.

var (
	tempMu   sync.Mutex
	tempDirs []string
)

// sharedTempDir returns a new temporary directory that outlives the test
// that made it (for results shared between tests); TestMain removes it.
func sharedTempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", err
	}
	tempMu.Lock()
	tempDirs = append(tempDirs, dir)
	tempMu.Unlock()
	return dir, nil
}

func TestMain(m *testing.M) {
	code := m.Run()
	tempMu.Lock()
	for _, d := range tempDirs {
		os.RemoveAll(d)
	}
	tempMu.Unlock()
	os.Exit(code)
}

// skipShort skips a test that builds and runs go test binaries under
// -short.
func skipShort(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds go test binaries; run without -short")
	}
}

// repoRoot returns the root of the kfuzz module.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && strings.HasPrefix(string(data), "module github.com/seed72891827/kfuzz\n") {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no kfuzz go.mod above the working directory")
		}
		dir = parent
	}
}

// rootRequires returns the require lines of the kfuzz go.mod.
func rootRequires(root string) ([]string, error) {
	f, err := os.Open(filepath.Join(root, "go.mod"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var reqs []string
	in := false
	s := bufio.NewScanner(f)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		switch {
		case in && line == ")":
			in = false
		case in && line != "" && !strings.HasPrefix(line, "//"):
			reqs = append(reqs, line)
		case line == "require (":
			in = true
		case strings.HasPrefix(line, "require "):
			reqs = append(reqs, strings.TrimPrefix(line, "require "))
		}
	}
	return reqs, s.Err()
}

// newModule copies the module in testdata/name to a new directory under
// parent, giving it a go.mod that requires kfuzz (replaced by the working
// tree) and all that kfuzz requires, and kfuzz's go.sum.
func newModule(parent, name string) (string, error) {
	root, err := repoRoot()
	if err != nil {
		return "", err
	}
	src := filepath.Join("testdata", name)
	dst := filepath.Join(parent, name)
	err = filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel = strings.TrimSuffix(rel, ".in") // go.mod.in
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		return "", err
	}
	reqs, err := rootRequires(root)
	if err != nil {
		return "", err
	}
	var mod bytes.Buffer
	data, err := os.ReadFile(filepath.Join(dst, "go.mod"))
	if err != nil {
		return "", err
	}
	mod.Write(data)
	mod.WriteString("\nrequire github.com/seed72891827/kfuzz v0.0.0\n\nrequire (\n")
	for _, r := range reqs {
		fmt.Fprintf(&mod, "\t%s\n", r)
	}
	fmt.Fprintf(&mod, ")\n\nreplace github.com/seed72891827/kfuzz => %s\n", root)
	if err := os.WriteFile(filepath.Join(dst, "go.mod"), mod.Bytes(), 0o644); err != nil {
		return "", err
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	return dst, os.WriteFile(filepath.Join(dst, "go.sum"), sum, 0o644)
}

// goEnv returns the environment for the go command with extra variables.
func goEnv(extra ...string) []string {
	return append(append(os.Environ(), "GOWORK=off"), extra...)
}

// runGo runs the go command in dir and returns its combined output.
func runGo(dir string, env []string, args ...string) (string, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = dir
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return string(out), fmt.Errorf("go %s in %s: %v\n%s", strings.Join(args, " "), dir, err, out)
	}
	return string(out), nil
}
