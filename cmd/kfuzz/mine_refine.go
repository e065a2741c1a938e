package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// parserOracle builds a small program that runs the entry function of the
// package pkg (as the go command names it, resolved in the current
// directory) on inputs it reads from its standard input, and returns a
// membership test that asks it. The program is added to the package's
// module through a build overlay, so nothing is written into the module.
func parserOracle(ctx context.Context, pkg, entry string) (accept func([]byte) bool, stop func(), err error) {
	out, err := exec.CommandContext(ctx, "go", "list", "-f", "{{.ImportPath}}\t{{.Dir}}", pkg).Output()
	if err != nil {
		return nil, nil, fmt.Errorf("-refine: go list %s: %v", pkg, err)
	}
	importPath, dir, ok := strings.Cut(strings.TrimSpace(string(out)), "\t")
	if !ok || strings.Contains(dir, "\n") {
		return nil, nil, fmt.Errorf("-refine: %s is not one package", pkg)
	}
	tmp, err := os.MkdirTemp("", "kfuzz-refine-")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { os.RemoveAll(tmp) }
	src := filepath.Join(tmp, "main.go")
	if err := os.WriteFile(src, []byte(fmt.Sprintf(oracleMain, importPath, entry)), 0o644); err != nil {
		cleanup()
		return nil, nil, err
	}
	mainDir := filepath.Join(dir, "kfuzz_refine_oracle")
	overlay, _ := json.Marshal(map[string]map[string]string{"Replace": {filepath.Join(mainDir, "main.go"): src}})
	ov := filepath.Join(tmp, "overlay.json")
	bin := filepath.Join(tmp, "oracle")
	if err := os.WriteFile(ov, overlay, 0o644); err != nil {
		cleanup()
		return nil, nil, err
	}
	build := exec.CommandContext(ctx, "go", "build", "-overlay", ov, "-o", bin, ".")
	build.Dir = mainDir
	if msg, err := build.CombinedOutput(); err != nil {
		// The overlay's directory does not exist on disk: build by path.
		build = exec.CommandContext(ctx, "go", "build", "-overlay", ov, "-o", bin, importPath+"/kfuzz_refine_oracle")
		if msg2, err2 := build.CombinedOutput(); err2 != nil {
			cleanup()
			return nil, nil, fmt.Errorf("-refine: building the parser's oracle: %v\n%s%s", err2, msg, msg2)
		}
	}
	cmd := exec.CommandContext(ctx, bin)
	in, _ := cmd.StdinPipe()
	outp, _ := cmd.StdoutPipe()
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
		cleanup()
		return nil, nil, err
	}
	w, r := bufio.NewWriter(in), bufio.NewReader(outp)
	failed := false
	accept = func(b []byte) bool {
		if failed {
			return false
		}
		var n [4]byte
		binary.LittleEndian.PutUint32(n[:], uint32(len(b)))
		w.Write(n[:])
		w.Write(b)
		if err := w.Flush(); err != nil {
			failed = true
			return false
		}
		c, err := r.ReadByte()
		if err != nil {
			failed = true
			return false
		}
		return c == 1
	}
	stop = func() {
		in.Close()
		cmd.Wait()
		cleanup()
	}
	return accept, stop, nil
}

// oracleMain runs the entry function on length-prefixed inputs and answers
// one byte each: 1 when it accepts (a nil error or true as its last result,
// no panic).
const oracleMain = `package main

import (
	"bufio"
	"encoding/binary"
	"io"
	"os"
	"reflect"

	parser %[1]q
)

func main() {
	r, w := bufio.NewReader(os.Stdin), bufio.NewWriter(os.Stdout)
	f := reflect.ValueOf(parser.%[2]s)
	for {
		var n [4]byte
		if _, err := io.ReadFull(r, n[:]); err != nil {
			return
		}
		b := make([]byte, binary.LittleEndian.Uint32(n[:]))
		if _, err := io.ReadFull(r, b); err != nil {
			return
		}
		c := byte(0)
		if accept(f, b) {
			c = 1
		}
		w.WriteByte(c)
		w.Flush()
	}
}

func accept(f reflect.Value, b []byte) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	t := f.Type()
	var arg reflect.Value
	if t.In(0).Kind() == reflect.String {
		arg = reflect.ValueOf(string(b)).Convert(t.In(0))
	} else {
		arg = reflect.ValueOf(b).Convert(t.In(0))
	}
	out := f.Call([]reflect.Value{arg})
	if len(out) == 0 {
		return true
	}
	last := out[len(out)-1]
	if last.Kind() == reflect.Bool {
		return last.Bool()
	}
	return last.IsNil()
}
`
