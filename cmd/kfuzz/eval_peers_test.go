package main

import (
	"strings"
	"testing"
)

func TestEvalPeersUsage(t *testing.T) {
	if _, errOut, code := kfuzz(t, "eval", "peers", "extra"); code != 2 || !strings.Contains(errOut, "usage: kfuzz eval peers") {
		t.Errorf("code %d, stderr %q", code, errOut)
	}
	for _, tc := range []struct{ flag, want string }{
		{"-subjects=calc,xml", `unknown subject "xml" (have calc, scriptc, json, csv)`},
		{"-tools=go-fuzz,afl", `unknown tool "afl"`},
	} {
		if _, errOut, code := kfuzz(t, "eval", "peers", tc.flag); code != 1 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%s: code %d, stderr %q; want %q", tc.flag, code, errOut, tc.want)
		}
	}
}
