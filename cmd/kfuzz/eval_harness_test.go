package main

import (
	"strings"
	"testing"
)

func TestEvalHarnessUsage(t *testing.T) {
	if _, errOut, code := kfuzz(t, "eval", "harness", "extra"); code != 2 || !strings.Contains(errOut, "usage: kfuzz eval harness") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
}
