package check

// checker holds the state of one Check call.
type checker struct {
	prog  *Program
	errs  []*Error
	exts  map[string]bool
	scope *scope

	builtinUsed map[BuiltinVar]*Var
	refTypes    map[string]*Type

	fn     *Func // function being checked
	loops  int   // enclosing loops
	breaks int   // enclosing loops and switches
}

func newChecker(version int, es bool) *checker {
	c := &checker{prog: &Program{Version: version, ES: es, LocalSize: [3]int{1, 1, 1}, LocalSizeSpec: [3]int{-1, -1, -1}}, exts: map[string]bool{}, builtinUsed: map[BuiltinVar]*Var{}, refTypes: map[string]*Type{}}
	c.push()
	return c
}
