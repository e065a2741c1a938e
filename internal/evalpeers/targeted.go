package evalpeers

import (
	"context"
	"errors"
	"os"
	"sort"

	"github.com/seed72891827/kfuzz/corpus"
	"github.com/seed72891827/kfuzz/internal/measure"
	"github.com/seed72891827/kfuzz/internal/pipeline"
	"github.com/seed72891827/kfuzz/learn"
)

// Targeted-seed settings: the random training inputs of the model, the
// rarely covered functions aimed at, and the inputs wanted per function.
const (
	targetedTrain = 300
	targetedFuncs = 6
	targetedPer   = 4
)

// TargetedSeeds learns which input features reach which functions of the
// subject (kfuzz learn, on the clean copy through FuzzKfuzzKPath, whose
// harness FuzzKfuzzTargeted shares), and generates inputs from the rules of
// the functions that the fewest training inputs covered (kfuzz seed). It
// returns the corpus entries of the inputs that reached their function and
// the functions aimed at. seed seeds the learning and the generation.
func (s *Scratch) TargetedSeeds(ctx context.Context, sub Subject, seed uint64) (entries [][]byte, funcs []string, err error) {
	sess, err := pipeline.Open(ctx, measure.Config{
		Dir: s.Cover, Package: "./fz/" + sub.Name, Target: "FuzzKfuzzKPath",
		Cover: []string{scratchModule + "/subj/" + sub.Name},
		Env:   append(os.Environ(), "GOWORK=off"),
	})
	if err != nil {
		return nil, nil, err
	}
	defer sess.Close()
	l, err := sess.Learn(ctx, pipeline.LearnOptions{N: targetedTrain, Refine: 1, Seed: seed})
	if err != nil {
		return nil, nil, err
	}
	var rare []*learn.Func
	for _, f := range l.Model.Funcs {
		if f.Pos > 0 && len(f.Rules) > 0 {
			rare = append(rare, f)
		}
	}
	sort.SliceStable(rare, func(i, j int) bool { return rare[i].Pos < rare[j].Pos })
	for _, f := range rare[:min(len(rare), targetedFuncs)] {
		seeds, err := sess.Seeds(ctx, l.Model, f.Name, pipeline.SeedOptions{N: targetedPer, Seed: seed})
		if errors.Is(err, learn.ErrUnsatisfiable) {
			continue
		} else if err != nil {
			return nil, nil, err
		}
		funcs = append(funcs, f.Name)
		for _, sd := range seeds {
			if !sd.Reached {
				continue
			}
			e, err := corpus.Marshal(sd.Data)
			if err != nil {
				return nil, nil, err
			}
			entries = append(entries, e)
		}
	}
	return entries, funcs, nil
}
