package check

// GL_EXT_opacity_micromap_ray_query_mode: the built-in constant
// gl_EnableOpacityMicromapEXT selects the opacity-micromap mode of ray
// queries. It is false unless the shader redeclares it, either as
// "const bool gl_EnableOpacityMicromapEXT = true;" or, bare, as a
// specialization constant: "layout(constant_id = N) gl_EnableOpacityMicromapEXT;".

const (
	opacityMicromapName = "gl_EnableOpacityMicromapEXT"
	opacityMicromapExt  = "GL_EXT_opacity_micromap_ray_query_mode"
)

// opacityMicromapSpec handles the bare specialization-constant
// redeclaration.
func (c *checker) opacityMicromapSpec(q quals, pos Pos) {
	if !c.requireExt(pos, opacityMicromapName, opacityMicromapExt) {
		return
	}
	li := c.parseLayout(q.layout)
	if li.constantID < 0 || q.storage != "" {
		c.errorf(pos, opacityMicromapName, "can only be redeclared with layout(constant_id = N) alone")
		return
	}
	if !c.opacityMicromapUnused(pos) {
		return
	}
	v := &Var{Name: opacityMicromapName, Type: TBool, Storage: StorageSpecConst, SpecID: li.constantID, Value: BoolConst(false), Pos: pos,
		Layout: noLayout(), Builtin: BuiltinEnableOpacityMicromapEXT}
	c.builtinUsed[BuiltinEnableOpacityMicromapEXT] = v
	c.prog.Globals = append(c.prog.Globals, v)
	c.declare(opacityMicromapName, pos, &symbol{v: v})
}

// redeclaredOpacityMicromap makes a global declared with the built-in's
// name (a const or specialization-constant bool) the built-in itself.
func (c *checker) redeclaredOpacityMicromap(v *Var) {
	if !c.requireExt(v.Pos, opacityMicromapName, opacityMicromapExt) {
		return
	}
	if v.Storage == StorageSpecConst {
		// The extension allows only the bare form with constant_id.
		c.errorf(v.Pos, "redeclaration", "cannot restate the type or specify a value with constant_id; use 'layout(constant_id = N) gl_EnableOpacityMicromapEXT;' %s", opacityMicromapName)
		return
	}
	if !Identical(v.Type, TBool) || v.Storage != StorageConst || v.Value == nil {
		c.errorf(v.Pos, opacityMicromapName, "must be redeclared as a constant bool")
		return
	}
	if c.opacityMicromapUnused(v.Pos) {
		v.Builtin = BuiltinEnableOpacityMicromapEXT
		c.builtinUsed[BuiltinEnableOpacityMicromapEXT] = v
	}
}

// opacityMicromapUnused reports (as an error) a redeclaration after the
// built-in was used or redeclared.
func (c *checker) opacityMicromapUnused(pos Pos) bool {
	if c.builtinUsed[BuiltinEnableOpacityMicromapEXT] != nil {
		c.errorf(pos, opacityMicromapName, "redeclaration after use or earlier redeclaration")
		return false
	}
	return true
}
