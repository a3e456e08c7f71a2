// Package validate checks request structs with go-playground/validator and
// turns its findings into one readable message per broken rule.
package validate

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"
)

var (
	once sync.Once
	v    *validator.Validate
)

// Validator returns the shared validator; modules may register rules on it
// from their constructors (it is safe for concurrent use once set up).
func Validator() *validator.Validate {
	once.Do(func() {
		v = validator.New(validator.WithRequiredStructEnabled())
		v.RegisterTagNameFunc(func(f reflect.StructField) string {
			name := strings.SplitN(f.Tag.Get("json"), ",", 2)[0]
			if name == "-" {
				return ""
			}
			if name == "" {
				return f.Name
			}
			return name
		})
		// A declaration for the text rule (text.go), not a check: the
		// rule runs on the raw body, before this validator.
		_ = v.RegisterValidation(MultilineTag, func(validator.FieldLevel) bool { return true }, true)
	})
	return v
}

// Struct validates s and returns one message per broken rule, or nil.
func Struct(s any) []string {
	err := Validator().Struct(s)
	if err == nil {
		return nil
	}
	var verrs validator.ValidationErrors
	if !errors.As(err, &verrs) {
		return []string{err.Error()}
	}
	out := make([]string, 0, len(verrs))
	for _, fe := range verrs {
		out = append(out, Message(fe))
	}
	return out
}

// Message words one validator finding for a client.
func Message(fe validator.FieldError) string {
	field := fieldPath(fe)
	switch fe.Tag() {
	case "required", "required_without", "required_with":
		return field + ": is required"
	case "email":
		return field + ": must be a valid email address"
	case "min":
		if isString(fe) {
			return fmt.Sprintf("%s: must be at least %s characters", field, fe.Param())
		}
		if fe.Kind() == reflect.Slice {
			return fmt.Sprintf("%s: must have at least %s items", field, fe.Param())
		}
		return fmt.Sprintf("%s: must be at least %s", field, fe.Param())
	case "max":
		if isString(fe) {
			return fmt.Sprintf("%s: must be at most %s characters", field, fe.Param())
		}
		if fe.Kind() == reflect.Slice {
			return fmt.Sprintf("%s: must have at most %s items", field, fe.Param())
		}
		return fmt.Sprintf("%s: must be at most %s", field, fe.Param())
	case "len":
		if isString(fe) {
			return fmt.Sprintf("%s: must be exactly %s characters", field, fe.Param())
		}
		return fmt.Sprintf("%s: must have exactly %s items", field, fe.Param())
	case "oneof":
		return fmt.Sprintf("%s: must be one of %s", field, strings.ReplaceAll(fe.Param(), " ", ", "))
	case "gte":
		return fmt.Sprintf("%s: must be %s or more", field, fe.Param())
	case "lte":
		return fmt.Sprintf("%s: must be %s or less", field, fe.Param())
	case "gt":
		return fmt.Sprintf("%s: must be more than %s", field, fe.Param())
	case "lt":
		return fmt.Sprintf("%s: must be less than %s", field, fe.Param())
	case "numeric", "number":
		return field + ": must be a number"
	case "alpha":
		return field + ": must contain letters only"
	case "uuid", "uuid4", "uuid7":
		return field + ": must be a UUID"
	case "datetime":
		return fmt.Sprintf("%s: must be a date in the form %s", field, fe.Param())
	case "e164":
		return field + ": must be an international phone number such as +4915112345678"
	default:
		return fmt.Sprintf("%s: is not valid (%s)", field, fe.Tag())
	}
}

func fieldPath(fe validator.FieldError) string {
	ns := fe.Namespace()
	if i := strings.IndexByte(ns, '.'); i >= 0 {
		return ns[i+1:]
	}
	return fe.Field()
}

func isString(fe validator.FieldError) bool {
	// The validator reports the kind behind a pointer already.
	return fe.Kind() == reflect.String
}
