package isla

import "fmt"

// Conjoin returns the conjunction of constraints, as one constraint: ISLa is
// closed under conjunction, and a spec is refined by adding constraints.
// All must declare the same constant (or none).
func Conjoin(cs ...*Constraint) (*Constraint, error) {
	if len(cs) == 0 {
		return nil, fmt.Errorf("isla: no constraint to conjoin")
	}
	out := *cs[0]
	for _, c := range cs[1:] {
		if c.Const != out.Const || c.ConstType != out.ConstType {
			return nil, fmt.Errorf("isla: %s: the constant %s: <%s> differs from %s: <%s>",
				c.ConstPos, c.Const, c.ConstType, out.Const, out.ConstType)
		}
		out.Formula = &Binary{Op: And, X: out.Formula, Y: c.Formula, P: out.Formula.Position()}
	}
	return &out, nil
}
