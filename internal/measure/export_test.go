package measure

// SetRecycleAfter sets how many queries a test process of an Oracle answers
// before it is replaced, and returns a function that restores the default.
func SetRecycleAfter(n int) (restore func()) {
	old := recycleAfter
	recycleAfter = n
	return func() { recycleAfter = old }
}

// CopyGoSum is copyGoSum, for the external tests' test modules.
var CopyGoSum = copyGoSum
