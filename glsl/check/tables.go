package check

import "sync"

// The name tables of built-in types, functions, variables, constants and
// opaque types are filled on the first check rather than at program start,
// so that commands linking the compiler but not compiling (coop val, coop
// dis) do not pay for them (a sync.Once, which unlike sync.OnceFunc
// allocates nothing at package init). The order is the one the
// initialisers had: the package variable first, then the init functions in
// file order.
func loadTables() { tablesOnce.Do(fillTables) }

var tablesOnce sync.Once

func fillTables() {
	builtinTable = map[string][]*overload{}
	builtinVars = map[string]BuiltinVar{}
	imageFormats = map[string]bool{}
	opaqueNames = map[string]*Type{}
	int64Images = map[string]bool{}
	typeNames = map[string]*Type{}
	typeNameExt = map[string][]string{}
	defineBuiltinConsts()
	defineTexForms()
	defineTypeNames()
	indexBuiltinNames()
	defineBuiltins()
	indexBuiltinVars()
	defineImageFormats()
	defineOpaqueNames()
	defineRayQuery()
}
