package main

import (
	"strings"
	"testing"
)

func TestEvalISLearn(t *testing.T) {
	stdout, errOut, code := kfuzz(t, "eval", "islearn", "-subjects", "racket", "-v")
	if code != 0 {
		t.Fatalf("code %d, stderr %q", code, errOut)
	}
	if !strings.Contains(stdout, "racket   50/50") || !strings.Contains(stdout, "72%") || !strings.Contains(stdout, "forall <use> u:") {
		t.Errorf("stdout:\n%s", stdout)
	}
	_, errOut, code = kfuzz(t, "eval", "islearn", "-subjects", "nope")
	if code == 0 || !strings.Contains(errOut, `no subject "nope"`) {
		t.Errorf("unknown subject: code %d, stderr %q", code, errOut)
	}
}
