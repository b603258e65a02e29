layout(local_size_x = 1) in; // ERROR: '#version' : compute shaders require es profile with version 310 or above
void main() {}
