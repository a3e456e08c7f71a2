package httpserver

import (
	"encoding/binary"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestHexDigits: the spread-and-add hex is encoding/hex's, for the edges
// and a million random words.
func TestHexDigits(t *testing.T) {
	words := []uint32{0, 1, 9, 10, 15, 16, 0x9a, 0xffffffff, 0x12345678, 0x89abcdef, 0xa0a0a0a0, 0x09090909}
	for range 1_000_000 {
		words = append(words, rand.Uint32())
	}
	for _, v := range words {
		var got, want [8]byte
		binary.BigEndian.PutUint64(got[:], hexDigits(v))
		var raw [4]byte
		binary.BigEndian.PutUint32(raw[:], v)
		hex.Encode(want[:], raw[:])
		if got != want {
			t.Fatalf("hexDigits(%#x) = %q, want %q", v, got[:], want[:])
		}
	}
}
