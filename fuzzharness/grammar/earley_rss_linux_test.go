package grammar

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The peak memory of a parse is measured in a child process (this test
// binary, running TestAmbiguousParseChild), whose peak resident set size
// the kernel reports: unlike heap statistics, it includes what the garbage
// collector has not returned yet. The child reads it from VmHWM in
// /proc/self/status: the ru_maxrss that wait4 reports for a child also
// counts the parent's memory at the time of the fork.

const rssChildEnv = "KFUZZ_EARLEY_RSS_CHILD" // "n maxItems"

// TestAmbiguousParseChild is the child: it parses a^n with <s> ::= <s> <s>
// | "a" and prints "ok" or "limit". It does nothing unless started by
// ambiguousParsePeak.
func TestAmbiguousParseChild(t *testing.T) {
	arg := os.Getenv(rssChildEnv)
	if arg == "" {
		t.Skip("run by ambiguousParsePeak")
	}
	var n, maxItems int
	if _, err := fmt.Sscan(arg, &n, &maxItems); err != nil {
		t.Fatal(err)
	}
	p := earleyParser(t, `<s> ::= <s> <s> | "a" ;`, MaxItems(maxItems))
	_, err := p.Parse([]byte(strings.Repeat("a", n)))
	switch {
	case err == nil:
		fmt.Println("result: ok")
	case errors.Is(err, ErrItemLimit):
		fmt.Println("result: limit")
	default:
		t.Fatal(err)
	}
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(status), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			fmt.Println("peak:", strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(line, "VmHWM:"), "kB")))
		}
	}
}

// ambiguousParsePeak parses a^n with the ambiguous grammar and item limit
// maxItems in a child process and returns its peak RSS in bytes, its CPU
// time, and whether the limit stopped the parse.
func ambiguousParsePeak(tb testing.TB, n, maxItems int) (peak int64, cpu time.Duration, limited bool) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestAmbiguousParseChild$", "-test.v")
	cmd.Env = append(os.Environ(), rssChildEnv+"="+strconv.Itoa(n)+" "+strconv.Itoa(maxItems))
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("child: %v\n%s", err, out)
	}
	switch {
	case strings.Contains(string(out), "result: ok"):
	case strings.Contains(string(out), "result: limit"):
		limited = true
	default:
		tb.Fatalf("child printed no result:\n%s", out)
	}
	_, after, ok := strings.Cut(string(out), "peak: ")
	kb, err := strconv.ParseInt(strings.Fields(after + " x")[0], 10, 64)
	if !ok || err != nil {
		tb.Fatalf("child printed no peak:\n%s", out)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	return kb << 10, time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), limited
}

// TestItemLimitBoundsPeakRSS checks that the item limit bounds the memory
// of a parse, not only the forest: on a^2000 with the cubic grammar, a
// parse stopped by MaxItems(1<<22) peaks below 16 bytes per item plus 40
// MB for the test process (it peaked at about three times the links'
// 12 bytes each when links grew by append).
func TestItemLimitBoundsPeakRSS(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a parse of some seconds in a child process")
	}
	const maxItems = 1 << 22
	peak, _, limited := ambiguousParsePeak(t, 2000, maxItems)
	if !limited {
		t.Fatal("the parse was not stopped by the item limit")
	}
	if bound := int64(16*maxItems + 40<<20); peak > bound {
		t.Errorf("peak RSS %d MB, more than %d MB", peak>>20, bound>>20)
	}
	t.Logf("peak RSS %d MB", peak>>20)
}

// BenchmarkAmbiguousPeakRSS reports the peak RSS and CPU time of a child
// process that parses a^n with <s> ::= <s> <s> | "a" and the default item
// limit (reached from n = 738).
func BenchmarkAmbiguousPeakRSS(b *testing.B) {
	for _, n := range []int{200, 400, 600, 1000, 2000} {
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var peak int64
			var cpu time.Duration
			limited := false
			for b.Loop() {
				p, c, l := ambiguousParsePeak(b, n, 0)
				peak, cpu, limited = max(peak, p), cpu+c, l
			}
			b.ReportMetric(float64(peak)/(1<<20), "peak-MB")
			b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
			if limited {
				b.ReportMetric(1, "limited")
			} else {
				b.ReportMetric(0, "limited")
			}
		})
	}
}
