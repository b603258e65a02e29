package check

import "github.com/coopshader/coop/glsl/syntax"

// stmt checks one statement; a declaration of several names gives several
// statements, an empty statement none.
func (c *checker) stmt(s syntax.Stmt) []Stmt {
	switch s := s.(type) {
	case *syntax.BlockStmt:
		return []Stmt{c.block(s)}
	case *syntax.DeclStmt:
		return c.varDecl(s.Decl, false)
	case *syntax.ExprStmt:
		return []Stmt{&ExprStmt{X: c.expr(s.X)}}
	case *syntax.EmptyStmt:
		return nil
	case *syntax.IfStmt:
		hints := c.selectionHints(s.Attrs, "selection")
		cond := c.condExpr(c.expr(s.Cond), s.Cond.Position())
		st := &If{Cond: cond, Then: c.subStmt(s.Then), Hints: hints}
		if s.Else != nil {
			st.Else = c.subStmt(s.Else)
		}
		return []Stmt{st}
	case *syntax.ForStmt:
		c.push()
		defer c.pop()
		st := &For{Hints: c.loopHints(s.Attrs)}
		if s.Init != nil {
			st.Init = single(c.stmt(s.Init))
		}
		if s.CondDecl != nil {
			c.errorf(s.Pos, "for", "a declaration as loop condition is not supported")
		} else if s.Cond != nil {
			st.Cond = c.condExpr(c.expr(s.Cond), s.Cond.Position())
		}
		if s.Post != nil {
			st.Post = c.expr(s.Post)
		}
		st.Body = c.loopBody(s.Body)
		return []Stmt{st}
	case *syntax.WhileStmt:
		c.push()
		defer c.pop()
		st := &While{Hints: c.loopHints(s.Attrs)}
		if s.CondDecl != nil {
			c.errorf(s.Pos, "while", "a declaration as loop condition is not supported")
		} else {
			st.Cond = c.condExpr(c.expr(s.Cond), s.Cond.Position())
		}
		st.Body = c.loopBody(s.Body)
		return []Stmt{st}
	case *syntax.DoStmt:
		hints := c.loopHints(s.Attrs)
		st := &DoWhile{Body: c.loopBody(s.Body), Hints: hints}
		st.Cond = c.condExpr(c.expr(s.Cond), s.Cond.Position())
		return []Stmt{st}
	case *syntax.SwitchStmt:
		hints := c.selectionHints(s.Attrs, "switch")
		st := c.switchStmt(s)
		if sw, ok := st.(*Switch); ok {
			sw.Hints = hints
		}
		return []Stmt{st}
	case *syntax.CaseLabel:
		tok := "case"
		if s.X == nil {
			tok = "default"
		}
		c.errorf(s.Pos, tok, "label not inside a switch statement")
		return nil
	case *syntax.BranchStmt:
		return c.branch(s)
	case *syntax.ReturnStmt:
		var x Expr
		if s.X != nil {
			x = c.expr(s.X)
			c.returnsValue = true
		}
		return []Stmt{c.returnStmt(x, s.Pos)}
	}
	return nil
}

// block checks { ... } in a new scope.
func (c *checker) block(s *syntax.BlockStmt) *Block {
	c.push()
	defer c.pop()
	b := &Block{}
	for _, x := range s.Stmts {
		b.Stmts = append(b.Stmts, c.stmt(x)...)
	}
	return b
}

// subStmt checks the body of an if, loop or similar: one statement, in a
// scope of its own.
func (c *checker) subStmt(s syntax.Stmt) Stmt {
	if b, ok := s.(*syntax.BlockStmt); ok {
		return c.block(b)
	}
	c.push()
	defer c.pop()
	return single(c.stmt(s))
}

func (c *checker) loopBody(s syntax.Stmt) Stmt {
	c.loops++
	c.breaks++
	defer func() { c.loops--; c.breaks-- }()
	return c.subStmt(s)
}

// single turns a statement list into one statement.
func single(ss []Stmt) Stmt {
	if len(ss) == 1 {
		return ss[0]
	}
	return &Block{Stmts: ss}
}

func (c *checker) branch(s *syntax.BranchStmt) []Stmt {
	switch s.Kind {
	case "break":
		if c.breaks == 0 {
			c.errorf(s.Pos, "break", "break statement only allowed in switch and loops")
		}
		return []Stmt{&Break{}}
	case "continue":
		if c.loops == 0 {
			c.errorf(s.Pos, "continue", "continue statement only allowed in loops")
		}
		return []Stmt{&Continue{}}
	case "discard", "terminateInvocation", "demote", "beginInvocationInterlockARB":
		c.errorf(s.Pos, s.Kind, "not supported in this stage: compute")
		return nil
	}
	c.errorf(s.Pos, s.Kind, "not supported in this stage: compute")
	return nil
}

// switchStmt checks a switch: an integer scalar selector, constant case
// labels of its type without duplicates, at most one default, and no
// statement before the first label.
func (c *checker) switchStmt(s *syntax.SwitchStmt) Stmt {
	x := c.expr(s.X)
	var sel *Type
	if !isErr(x) {
		sel = x.Type()
		if sel.Kind != KScalar || !sel.Scalar.IsInt() {
			c.errorf(s.Pos, "switch", "init-expression in a switch statement must be a scalar integer")
			sel = nil
		}
	}
	st := &Switch{X: x}
	seen := map[int64]bool{}
	hasDefault := false
	c.breaks++
	c.push()
	defer func() { c.breaks--; c.pop() }()
	var cur *Case
	for _, b := range s.Body {
		lbl, ok := b.(*syntax.CaseLabel)
		if !ok {
			body := c.stmt(b)
			if cur == nil {
				c.errorf(s.Pos, "switch", "cannot have statements before first case/default label")
				continue
			}
			cur.Body = append(cur.Body, body...)
			continue
		}
		if cur == nil || len(cur.Body) > 0 {
			cur = &Case{}
			st.Cases = append(st.Cases, cur)
		}
		if lbl.X == nil {
			if hasDefault {
				c.errorf(lbl.Pos, "default", "multiple default labels in one switch")
			}
			hasDefault, cur.Default = true, true
			continue
		}
		e := c.expr(lbl.X)
		if sel != nil && !isErr(e) && constOf(e) != nil && e.Type().Kind == KScalar && e.Type().Scalar.IsInt() && e.Type().Scalar != sel.Scalar {
			// Labels take the selector's type (int labels in a uint
			// switch, as glslang allows through implicit conversion).
			if c.implicitRank(e.Type(), sel) != rankNone || c.implicitRank(sel, e.Type()) != rankNone {
				e = c.convert(e, sel)
			}
		}
		if v, ok := c.caseLabel(e, sel, seen, lbl.Pos); ok {
			cur.Values = append(cur.Values, v)
		}
	}
	return st
}

// attributes checks that statement attributes ([[unroll]]) have one of the
// extensions glslang accepts for them; their meaning is only a hint.
func (c *checker) attributes(attrs []*syntax.Attribute) {
	if len(attrs) > 0 {
		c.requireExt(attrs[0].Pos, "attribute", "GL_EXT_control_flow_attributes", "GL_EXT_control_flow_attributes2", "GL_QCOM_multiple_wait_queues")
	}
}
