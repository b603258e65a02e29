package syntax

import "github.com/coopshader/coop/glsl/token"

// SpirvType holds the arguments of a spirv_type(...) type specifier
// (GL_EXT_spirv_intrinsics): the named items extensions = [...],
// capabilities = [...] and id = N, then the type's operands, each a
// constant expression (a literal operand) or a type (an id operand).
type SpirvType struct {
	Named  []*LayoutItem
	Params []*TypeArg
}

// spirvTypeArgs parses spirv_type's parenthesized arguments.
func (p *parser) spirvTypeArgs() *SpirvType {
	if !p.expect("(") {
		return nil
	}
	p.enter()
	defer p.leave()
	st := &SpirvType{}
	for {
		t := p.tok()
		switch {
		case t.Kind == token.Ident && p.peek(1).Is("="):
			p.i += 2
			it := &LayoutItem{Pos: t.Pos, Name: t.Text}
			if open := p.tok(); open.Is("[") {
				p.i++
				list := &InitList{Pos: open.Pos}
				for {
					x := p.condExpr()
					if x == nil {
						return nil
					}
					list.Elems = append(list.Elems, x)
					if !p.got(",") {
						break
					}
				}
				if !p.expect("]") {
					return nil
				}
				it.Value = list
			} else if it.Value = p.condExpr(); it.Value == nil {
				return nil
			}
			st.Named = append(st.Named, it)
		case p.isTypeAt(0):
			ts := p.typeSpec(nil)
			if ts == nil {
				return nil
			}
			st.Params = append(st.Params, &TypeArg{Type: ts})
		default:
			x := p.condExpr()
			if x == nil {
				return nil
			}
			st.Params = append(st.Params, &TypeArg{Expr: x})
		}
		if !p.got(",") {
			break
		}
	}
	if !p.expect(")") {
		return nil
	}
	return st
}

// skipParens returns the offset just past the parenthesized list that
// starts j tokens ahead, or -1 when it does not close.
func (p *parser) skipParens(j int) int {
	depth := 0
	for ; ; j++ {
		t := p.peek(j)
		switch {
		case t.Kind == token.EOF || t.Is(";") || t.Is("{") || t.Is("}"):
			return -1
		case t.Is("("):
			depth++
		case t.Is(")"):
			if depth--; depth == 0 {
				return j + 1
			}
		}
	}
}
