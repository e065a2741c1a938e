package corpus

import (
	"math/rand/v2"
	"testing"
)

// benchInputs returns 1 KB byte slices: printable text and random binary.
func benchInputs() map[string][]byte {
	r := rand.New(rand.NewPCG(3, 4))
	text := make([]byte, 1024)
	binary := make([]byte, 1024)
	for i := range text {
		text[i] = byte(' ' + r.IntN('~'-' '+1))
		binary[i] = byte(r.Uint32())
	}
	return map[string][]byte{"text": text, "binary": binary}
}

func BenchmarkMarshal1KB(b *testing.B) {
	for _, kind := range []string{"text", "binary"} {
		in := benchInputs()[kind]
		b.Run(kind, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Marshal(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkUnmarshal1KB(b *testing.B) {
	for _, kind := range []string{"text", "binary"} {
		data, err := Marshal(benchInputs()[kind])
		if err != nil {
			b.Fatal(err)
		}
		b.Run(kind, func(b *testing.B) {
			b.SetBytes(1024)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Unmarshal(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
