// Package gocmd runs the go command and git for kfuzz: in a directory, with an
// environment, under a context, returning standard output and, on failure, an
// *Error that names the command and holds an excerpt of what it wrote to
// standard error. It decodes the JSON streams of go list (List) and go env -json
// (Runner.GoEnv) in one place.
//
// The package imports nothing of kfuzz and nothing outside the standard
// library, so that every layer may use it, including the packages that test
// binaries of users' modules link (corpus): those must not make a user's
// module require more modules. For that reason it runs go list itself rather
// than through golang.org/x/tools/go/packages.
package gocmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"reflect"
	"strings"
)

// A Runner runs commands in one directory with one environment. The zero
// Runner runs them in the current directory with the environment of the
// process.
type Runner struct {
	// Dir is the directory the commands run in; "" means the current
	// directory.
	Dir string
	// Env is the environment of the commands, as os/exec.Cmd.Env: nil means
	// the environment of the process.
	Env []string
}

// maxStderr is how much of a failed command's standard error an Error
// keeps.
const maxStderr = 8 << 10

// An Error is a command that failed: it did not start, exited with a non-zero
// status, or was stopped when its context was done.
type Error struct {
	// Args is the command line, the program first ("go", "git").
	Args []string
	// Dir is the directory it ran in ("" for the current directory).
	Dir string
	// Err is why it failed: an *exec.ExitError, an error wrapping
	// exec.ErrNotFound, or the context's error.
	Err error
	// Stderr is what the command wrote to standard error: its beginning
	// and end, at most 8 KiB in all (see Excerpt), with surrounding space
	// trimmed.
	Stderr []byte
}

// Error returns the command line, the directory it ran in if not the
// current one, why it failed, and what it wrote to standard error on the
// lines that follow.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(strings.Join(e.Args, " "))
	if e.Dir != "" {
		fmt.Fprintf(&b, " (in %s)", e.Dir)
	}
	fmt.Fprintf(&b, ": %v", e.Err)
	if len(e.Stderr) > 0 {
		b.WriteByte('\n')
		b.Write(e.Stderr)
	}
	return b.String()
}

// Unwrap returns Err.
func (e *Error) Unwrap() error { return e.Err }

// Go runs the go command with args and returns its standard output. If
// the command fails, the error is an *Error and the output is what the
// command wrote before it failed (such as go test -v's report of the tests
// that ran).
func (r Runner) Go(ctx context.Context, args ...string) ([]byte, error) {
	return r.run(ctx, "go", args)
}

// Git runs git with args and returns its standard output, as Go does.
func (r Runner) Git(ctx context.Context, args ...string) ([]byte, error) {
	return r.run(ctx, "git", args)
}

// run runs the program name with args.
func (r Runner) run(ctx context.Context, name string, args []string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = r.Dir
	cmd.Env = r.Env
	var stdout bytes.Buffer
	stderr := Excerpt{Max: maxStderr}
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err == nil {
		return stdout.Bytes(), nil
	}
	if ctxErr := ctx.Err(); ctxErr != nil {
		err = ctxErr
	}
	return stdout.Bytes(), &Error{
		Args:   append([]string{name}, args...),
		Dir:    r.Dir,
		Err:    err,
		Stderr: stderr.Bytes(),
	}
}

// GoEnv returns the values of the go environment variables names (such as
// GOCACHE, GOMOD), as go env -json prints them; a variable the go command
// does not know is empty.
func (r Runner) GoEnv(ctx context.Context, names ...string) (map[string]string, error) {
	out, err := r.Go(ctx, append([]string{"env", "-json", "--"}, names...)...)
	if err != nil {
		return nil, err
	}
	vars := make(map[string]string)
	if err := json.Unmarshal(out, &vars); err != nil {
		return nil, fmt.Errorf("reading the output of go env -json: %v", err)
	}
	return vars, nil
}

// List runs go list -json=<fields> with args (flags such as -e, -m or
// -deps, then "--" and the patterns) and decodes what it prints, one T per
// package or module. The fields are those of the struct type T: its
// exported fields, named as encoding/json names them, which should be
// fields of go list's Package (or, with -m, Module) struct.
func List[T any](ctx context.Context, r Runner, args ...string) ([]T, error) {
	fields, err := jsonFields(reflect.TypeFor[T]())
	if err != nil {
		return nil, err
	}
	out, err := r.Go(ctx, append([]string{"list", "-json=" + strings.Join(fields, ",")}, args...)...)
	if err != nil {
		return nil, err
	}
	list, err := decodeAll[T](bytes.NewReader(out))
	if err != nil {
		return nil, fmt.Errorf("reading the output of go list: %v", err)
	}
	return list, nil
}

// decodeAll decodes a stream of JSON values.
func decodeAll[T any](rd io.Reader) ([]T, error) {
	var list []T
	dec := json.NewDecoder(rd)
	for {
		var v T
		if err := dec.Decode(&v); err == io.EOF {
			return list, nil
		} else if err != nil {
			return nil, err
		}
		list = append(list, v)
	}
}

// jsonFields returns the names under which encoding/json encodes the
// exported fields of the struct type t.
func jsonFields(t reflect.Type) ([]string, error) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("gocmd.List: %v is not a struct type", t)
	}
	var names []string
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		names = append(names, name)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("gocmd.List: %v has no exported fields", t)
	}
	return names, nil
}

// GitTopLevel returns the top directory of the git work tree that holds
// the Runner's directory (git rev-parse --show-toplevel), in git's spelling
// (forward slashes).
func (r Runner) GitTopLevel(ctx context.Context) (string, error) {
	out, err := r.Git(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return "", err
	}
	top := strings.TrimSpace(string(out))
	if top == "" {
		return "", errors.New("git rev-parse --show-toplevel printed nothing")
	}
	return top, nil
}

// An Excerpt is an io.Writer that keeps the first and the last bytes
// written to it, Max in all (half each), and counts those it drops between:
// enough of a long output to show how it began and how it ended. Its zero
// value keeps nothing; set Max.
type Excerpt struct {
	// Max bounds the bytes kept.
	Max int

	head, tail []byte
	dropped    int64
}

// Write keeps what fits of p; it never fails.
func (e *Excerpt) Write(p []byte) (int, error) {
	n := len(p)
	if room := e.Max/2 - len(e.head); room > 0 {
		k := min(room, len(p))
		e.head = append(e.head, p[:k]...)
		p = p[k:]
	}
	e.tail = append(e.tail, p...)
	if over := len(e.tail) - e.Max/2; over > 0 {
		e.dropped += int64(over)
		e.tail = append(e.tail[:0], e.tail[over:]...)
	}
	return n, nil
}

// Bytes returns what was kept, with a note of how many bytes were dropped
// where they were, and surrounding space trimmed.
func (e *Excerpt) Bytes() []byte {
	out := append([]byte(nil), e.head...)
	if e.dropped > 0 {
		out = append(out, fmt.Sprintf("\n[... %d bytes ...]\n", e.dropped)...)
	}
	return bytes.TrimSpace(append(out, e.tail...))
}
