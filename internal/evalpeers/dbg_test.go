package evalpeers

import (
	"context"
	"os"
	"testing"
)

func TestDbgWrite(t *testing.T) {
	dir := os.Getenv("PEERS_DBG")
	if dir == "" {
		t.Skip()
	}
	if _, err := WriteScratch(context.Background(), "/work/wt/peers", dir, Subjects); err != nil {
		t.Fatal(err)
	}
}

func TestDbgTargeted(t *testing.T) {
	dir := os.Getenv("PEERS_DBG")
	if dir == "" {
		t.Skip()
	}
	s := &Scratch{Fuzz: dir + "/fuzz", Cover: dir + "/cover"}
	e, f, err := s.TargetedSeeds(context.Background(), *SubjectNamed(os.Getenv("PEERS_SUBJ")), 1)
	t.Logf("%d entries, funcs %v, err %v", len(e), f, err)
}
