package httpserver

import (
	"encoding/binary"
	"math/rand/v2"
)

// requestIDLen is the length of the ids propman makes: a UUID's text.
const requestIDLen = 36

// newRequestID writes a new version 4 UUID into dst, without allocating:
// the chain copies it into the answer's header and the access line.
//
// Its 122 random bits come from math/rand/v2's top-level generator, the
// runtime's: a ChaCha8 stream per thread, seeded from the operating
// system when the process starts, so ids differ across CPUs and processes
// with no lock, pool or shared counter. A request id is for finding a
// request in the log, not a secret; nothing grants access by it.
func newRequestID(dst *[requestIDLen]byte) {
	hi, lo := rand.Uint64(), rand.Uint64()
	hi = hi&^0xf000 | 0x4000       // version 4: byte 6's high nibble
	lo = lo&^(0xc0<<56) | 0x80<<56 // variant 10: byte 8's top bits
	var h, l [16]byte
	binary.BigEndian.PutUint64(h[:8], hexDigits(uint32(hi>>32)))
	binary.BigEndian.PutUint64(h[8:], hexDigits(uint32(hi)))
	binary.BigEndian.PutUint64(l[:8], hexDigits(uint32(lo>>32)))
	binary.BigEndian.PutUint64(l[8:], hexDigits(uint32(lo)))
	copy(dst[0:8], h[0:8])
	dst[8] = '-'
	copy(dst[9:13], h[8:12])
	dst[13] = '-'
	copy(dst[14:18], h[12:16])
	dst[18] = '-'
	copy(dst[19:23], l[0:4])
	dst[23] = '-'
	copy(dst[24:36], l[4:16])
}

// hexDigits is v as 8 lower-case hex digits, the first in the top byte:
// every nibble is spread to a byte of its own and turned into its digit in
// all eight bytes at once. A table look-up a digit cost a request id twice
// as much as the rest of it (callgrind).
func hexDigits(v uint32) uint64 {
	x := uint64(v)
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	// '0' + n, and 'a' - '0' - 10 = 0x27 more where n is 10 or above
	// (n + 6 carries into bit 4 then; no byte carries into the next).
	letters := (x + 0x0606060606060606) >> 4 & 0x0101010101010101
	return x + 0x3030303030303030 + letters*0x27
}
