package httpserver

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/hex"
	"sync"
)

// requestIDLen is the length of the ids propman makes: a UUID's text.
const requestIDLen = 36

// idSource makes request ids: a random 128-bit seed with a counter mixed
// into its first 8 bytes, laid out as a version 4 UUID. Sources come from a
// pool, so the CPUs serving requests do not share one counter; each source
// has a seed of its own, which keeps ids apart across sources and
// processes.
type idSource struct {
	seed [16]byte
	n    uint64
}

var idSources = sync.Pool{New: func() any {
	s := &idSource{}
	_, _ = rand.Read(s.seed[:]) // never fails (crypto/rand panics instead)
	return s
}}

// newRequestID writes a new id into dst, without allocating: the chain
// copies it into the answer's header and the access line.
func newRequestID(dst *[requestIDLen]byte) {
	s := idSources.Get().(*idSource)
	s.n++
	u := s.seed
	binary.LittleEndian.PutUint64(u[:8], binary.LittleEndian.Uint64(u[:8])+s.n)
	idSources.Put(s)
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	hex.Encode(dst[0:8], u[0:4])
	dst[8] = '-'
	hex.Encode(dst[9:13], u[4:6])
	dst[13] = '-'
	hex.Encode(dst[14:18], u[6:8])
	dst[18] = '-'
	hex.Encode(dst[19:23], u[8:10])
	dst[23] = '-'
	hex.Encode(dst[24:], u[10:16])
}
