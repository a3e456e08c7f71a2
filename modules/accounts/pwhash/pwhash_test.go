package pwhash

import (
	"context"
	"strings"
	"testing"
)

func TestHashAndVerify(t *testing.T) {
	ctx := context.Background()
	h, err := Hash(ctx, "Correct-Horse-9")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q is not a PHC argon2id string with the default parameters", h)
	}
	h2, _ := Hash(ctx, "Correct-Horse-9")
	if h == h2 {
		t.Fatal("two hashes of one password are equal: the salt is not random")
	}
	for _, tc := range []struct {
		name, password string
		want           bool
	}{
		{"same", "Correct-Horse-9", true},
		{"other case", "correct-horse-9", false},
		{"prefix", "Correct-Horse-", false},
		{"empty", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Verify(ctx, tc.password, h)
			if err != nil || got != tc.want {
				t.Fatalf("Verify(%q) = %v, %v; want %v", tc.password, got, err, tc.want)
			}
		})
	}
}

func TestVerifyRejectsMalformed(t *testing.T) {
	for _, phc := range []string{
		"", "!unusable", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=99999999,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=19456,t=0,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNoaGFzaA",
		"$argon2id$v=19$m=19456,t=2,p=1$$aGFzaGhhc2hoYXNoaGFzaA",
	} {
		if ok, err := Verify(context.Background(), "x", phc); ok || err == nil {
			t.Errorf("Verify(%q) = %v, %v; want false, ErrMalformed", phc, ok, err)
		}
	}
}

func BenchmarkVerify(b *testing.B) {
	h, _ := Hash(context.Background(), "Correct-Horse-9")
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			_, _ = Verify(context.Background(), "Correct-Horse-9", h)
		}
	})
}
