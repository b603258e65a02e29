package backend

import "testing"

// TestFormats checks the format table: names round-trip, SPIR-V values
// map back to their formats, sizes match the component bits.
func TestFormats(t *testing.T) {
	n := 0
	for f := Format(1); f.Info() != nil; f++ {
		fi := f.Info()
		if g, ok := ParseFormat("VK_FORMAT_" + fi.Name); !ok || g != f {
			t.Errorf("%v: ParseFormat gives %v", f, g)
		}
		if fi.SPIRV != 0 && FormatOfSPIRV(fi.SPIRV) != f {
			t.Errorf("%v: SPIR-V %d maps to %v", f, fi.SPIRV, FormatOfSPIRV(fi.SPIRV))
		}
		bits := 0
		for _, b := range fi.Bits {
			bits += int(b)
		}
		if bits != 8*fi.Size {
			t.Errorf("%v: %d bits in %d bytes", f, bits, fi.Size)
		}
		n++
	}
	if n != 43 || FormatOfSPIRV(0) != FormatUndefined || FormatOfSPIRV(42) != FormatUndefined {
		t.Errorf("%d formats", n)
	}
}

// TestImageLayout checks level extents and offsets of the documented
// memory layout.
func TestImageLayout(t *testing.T) {
	d := ImageDesc{Format: FormatRgba16f, Dim: Image2D, Width: 5, Height: 3, Layers: 2, Levels: 3}
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	// Levels 5x3, 2x1, 1x1; 2 layers of 8-byte texels.
	want := []int{0, 5 * 3 * 2 * 8, (15 + 2) * 2 * 8}
	for l, w := range want {
		if got := d.LevelOffset(l); got != w {
			t.Errorf("level %d at %d, want %d", l, got, w)
		}
	}
	if w, h, z := d.LevelExtent(2); w != 1 || h != 1 || z != 1 {
		t.Errorf("level 2 is %dx%dx%d", w, h, z)
	}
	if d.Size() != (15+2+1)*2*8 {
		t.Errorf("size %d", d.Size())
	}
	for _, bad := range []ImageDesc{
		{Format: FormatR8, Dim: Image1D, Width: 4, Height: 2},
		{Format: FormatR8, Dim: Image2D, Width: 4, Height: 4, Levels: 4},
		{Format: FormatR8, Dim: Image3D, Width: 4, Height: 4, Depth: 2, Layers: 2},
		{Format: FormatR8, Dim: Image2D, Width: 4, Height: 4, Samples: 3},
		{Format: FormatR8, Dim: Image2D, Width: 4, Height: 4, Samples: 4, Levels: 2},
		{Format: FormatUndefined, Dim: Image2D, Width: 4},
		{Format: FormatR8, Dim: Image2D, Width: -1},
	} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
