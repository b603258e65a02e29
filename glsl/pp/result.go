// Package pp is the GLSL preprocessor: it turns source text into the token
// stream the parser reads, expanding macros, evaluating conditionals,
// following #include, and recording #version, #extension and #pragma.
package pp

import "github.com/coopshader/coop/glsl/token"

// Behavior is an #extension behavior.
type Behavior uint8

const (
	Disable Behavior = iota
	Warn
	Enable
	Require
)

func (b Behavior) String() string {
	return [...]string{"disable", "warn", "enable", "require"}[b]
}

// Extension is one #extension directive, in source order. Name may be
// "all" (only with warn or disable).
type Extension struct {
	Pos      token.Pos
	Name     string
	Behavior Behavior
}

// Pragma is one #pragma directive's tokens after the word "pragma".
type Pragma struct {
	Pos    token.Pos
	Tokens []token.Token
}

// Result is a preprocessed translation unit.
type Result struct {
	Tokens []token.Token // ends with a token of Kind EOF

	// Version is the #version number (100 when the shader has none, as in
	// glslang); Profile is "", "core", "compatibility" or "es".
	Version    int
	Profile    string
	VersionPos token.Pos
	HasVersion bool

	Extensions []Extension
	Pragmas    []Pragma

	// Includes lists every file #include read, resolved, in order (for
	// dependency output).
	Includes []string
	// IncludeTexts holds the text of each of Includes (for -g's OpSource).
	IncludeTexts []string
	// IncludedAt is where each of Includes was included.
	IncludedAt []token.Pos
}
