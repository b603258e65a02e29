package exec

// Tile shading (SPV_QCOM_tile_shading). The executor has no render pass:
// it runs a shader with the TileShadingRateQCOM execution mode as if in a
// per-tile dispatch over one tile of tileSize texels at framebuffer offset
// (0, 0), without an apron. Each invocation covers a block of rate texels,
// so the workgroup is the tile divided by the rate (rounded up, at least 1
// along each axis); the dispatch's group counts still apply.
var tileSize = [3]uint32{16, 16, 1}

// tileLocal is the workgroup size of a tile-shading shader with the given
// rate.
func tileLocal(rate [3]uint32) [3]uint32 {
	var l [3]uint32
	for k := range l {
		l[k] = 1
		if rate[k] > 0 {
			l[k] = max((tileSize[k]+rate[k]-1)/rate[k], 1)
		}
	}
	return l
}
