#version 450
// Targeting Vulkan, only constants convert to the OCP microscaling types:
// Vulkan has no conversion to them (OpFConvert may not produce one there).
#extension GL_EXT_float_ue8m0 : require
#extension GL_EXT_float_mxint8 : require
layout(local_size_x = 1) in;
layout(binding = 0) buffer B { float x; floatue8m0_t z; floatmxint8_t m; float y; };
void main() {
	z = floatue8m0_t(x); // ERROR: 'constructor' : constructor argument must be a non-spec constant
	m = floatmxint8_t(x); // ERROR: constructor argument must be a non-spec constant
	z = floatue8m0_t(4.0);
	m = floatmxint8_t(0.5);
	y = float(z) + float(m);
}
