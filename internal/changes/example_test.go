package changes_test

import (
	"fmt"
	"log"

	"github.com/seed72891827/kfuzz/internal/changes"
)

func ExampleParseDiff() {
	diff := `diff --git a/calc/calc.go b/calc/calc.go
--- a/calc/calc.go
+++ b/calc/calc.go
@@ -10,4 +10,4 @@ func Add(a, b int) int {
 	if a == 0 {
-		return b
+		return b + 0
 	}
 	return a + b
`
	changes, err := changes.ParseDiff("change.diff", []byte(diff))
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range changes {
		fmt.Println(c.Path, "added or changed:", c.Added, "deleted after:", c.Deleted)
	}
	// Output:
	// calc/calc.go added or changed: [11] deleted after: [10]
}
