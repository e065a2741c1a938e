package main

import (
	"context"
	"flag"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/internal/protocol"
)

// targetFlags name a fuzz test whose acceptance is the oracle of a mining
// command: the package argument (default ".") and -fuzz FuzzX.
type targetFlags struct {
	fuzz, tags *string
}

// addTargetFlags adds -fuzz and -tags to a mining command's flags.
func addTargetFlags(fs *flag.FlagSet) *targetFlags {
	return &targetFlags{
		fuzz: fs.String("fuzz", "", "the oracle is the fuzz test `FuzzX` of the package argument (default \".\")"),
		tags: fs.String("tags", "", "build `tags` of the -fuzz test, as for go test"),
	}
}

// given reports whether -fuzz names a fuzz test.
func (tf *targetFlags) given() bool { return *tf.fuzz != "" }

// targetHelp explains the fuzz target as an oracle, for the help texts of
// the mining commands.
const targetHelp = `With PACKAGE -fuzz FuzzX in place of -oracle, the oracle is the fuzz
test FuzzX, which must run its target through fuzzharness: its test binary
is built once and kept running, one process per core, each answering a
query in microseconds to milliseconds. An input is accepted when the
harness's grammar derives it (within its bounds), it satisfies the
harness's constraint and validity predicate, and the target neither fails,
panics nor calls t.Skip: a target tells that its parser rejected an input
with t.Skip. Inputs on which the target fails, panics, runs longer than
-timeout or crashes its process are rejections, printed with the input.`

// maxShownFailures bounds the target failures a mining command prints; the
// summary counts them all.
const maxShownFailures = 10

// A targetOracle is a fuzz test serving as a mining command's oracle, with
// the failures of its target queued for printing.
type targetOracle struct {
	*measure.Oracle
	cmd, target string

	mu       sync.Mutex
	pending  []measure.Failure
	failures int
	more     bool // a failure beyond maxShownFailures is yet to be noted
}

// open builds the fuzz test of the package argument (pos holds at most one)
// and starts it as an oracle with the per-query limit timeout. cmd names the
// command in what it prints.
func (tf *targetFlags) open(ctx context.Context, cmd string, pos []string, timeout time.Duration) (*targetOracle, error) {
	if len(pos) > 1 {
		return nil, fmt.Errorf("one package holds the -fuzz test, not %d (%s)", len(pos), strings.Join(pos, " "))
	}
	pkg := "."
	if len(pos) == 1 {
		pkg = pos[0]
	}
	bf := buildFlags{tags: tf.tags, timeout: &timeout}
	cfg, err := bf.config(pkg, *tf.fuzz)
	if err != nil {
		return nil, err
	}
	t := &targetOracle{cmd: cmd, target: *tf.fuzz}
	t.Oracle, err = measure.NewOracle(ctx, measure.OracleConfig{Config: cfg, Report: t.report})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// report queues a failure of the target.
func (t *targetOracle) report(f measure.Failure) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.failures++
	if t.failures <= maxShownFailures {
		t.pending = append(t.pending, f)
	} else if t.failures == maxShownFailures+1 {
		t.more = true
	}
}

// flush prints the failures queued since the last flush, with their
// inputs, on the progress's writer, above its line on a terminal.
func (t *targetOracle) flush(p *progress) {
	t.mu.Lock()
	fs, more := t.pending, t.more
	t.pending, t.more = nil, false
	t.mu.Unlock()
	if len(fs) == 0 && !more {
		return
	}
	w := p.w
	if p.tty && p.open {
		fmt.Fprint(w, "\r\x1b[K")
		p.drawn = time.Time{} // redraw at the next relabel
	}
	for _, f := range fs {
		in := strconv.Quote(string(f.Input))
		if len(in) > 200 {
			in = in[:200] + "...\" (" + strconv.Itoa(len(f.Input)) + " bytes)"
		}
		var what string
		switch f.Status {
		case protocol.StatusPanic:
			what = "panicked: " + f.Message
		case protocol.StatusTimeout:
			what = f.Message
		case measure.StatusCrash:
			what = "crashed its test process: " + lastLines(f.Message, 5)
		default:
			what = "failed (t.Error or t.Fatal)"
		}
		fmt.Fprintf(w, "kfuzz %s: %s on input %s: %s\n", t.cmd, t.target, in, what)
	}
	if more {
		fmt.Fprintf(w, "kfuzz %s: further failures of %s are counted, not shown\n", t.cmd, t.target)
	}
}

// lastLines returns the last n lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// summary returns the queries by status, e.g. "FuzzX: 120 pass, 3 panic".
func (t *targetOracle) summary() string {
	st := t.Statuses()
	var parts []string
	for _, s := range slices.Sorted(maps.Keys(st)) {
		parts = append(parts, fmt.Sprintf("%d %s", st[s], s))
	}
	return fmt.Sprintf("%s: %s; %d test processes", t.target, strings.Join(parts, ", "), t.Processes())
}
