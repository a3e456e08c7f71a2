package httpserver

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/validate"
)

// DecodeJSON reads the request body into v. A missing, malformed or
// mistyped body is a 400 validation_failed whose detail says where. Unknown
// fields are ignored: they are never applied. Every string of the body
// (unknown fields' too) must then pass the text rule (validate.JSONText:
// valid UTF-8, no control characters, tab and line breaks only in fields
// tagged validate:"multiline"), or the answer is a 400 naming each field.
func DecodeJSON(c *fiber.Ctx, v any) *apierror.Error {
	body := c.Body()
	if len(bytes.TrimSpace(body)) == 0 {
		return apierror.Validation("body: a JSON object is required")
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	if err := dec.Decode(v); err != nil {
		return apierror.Validation(describeJSONError(err))
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return apierror.Validation("body: unexpected data after the JSON value")
	}
	if details := validate.JSONText(body, v); len(details) > 0 {
		return apierror.Validation(details...)
	}
	return nil
}

func describeJSONError(err error) string {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		return fmt.Sprintf("body: malformed JSON at byte %d", syn.Offset)
	case errors.As(err, &typ):
		if typ.Field == "" {
			return fmt.Sprintf("body: must be a JSON %s", jsonKind(typ.Type.Kind().String()))
		}
		return fmt.Sprintf("%s: must be a %s, not %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "body: the JSON ends too early"
	default:
		var detail interface{ Error() string } = err
		return "body: " + detail.Error()
	}
}

func jsonKind(goKind string) string {
	switch goKind {
	case "struct", "map":
		return "object"
	case "slice", "array":
		return "array"
	case "string":
		return "string"
	case "bool":
		return "boolean"
	case "int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64":
		return "integer"
	case "float32", "float64":
		return "number"
	default:
		return "value of the documented type"
	}
}
