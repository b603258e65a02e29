#version 450
layout(local_size_x = 1) in;
layout(std430, binding = 0) buffer B { int n; int a[]; };
layout(std430, binding = 1) buffer C { int m; int a[]; } bs[2];
void main() {
	int i = 0;
	a;
	bs[i++].a;
	n = a[1] + a.length() + bs[i].a[0] + i;
}
