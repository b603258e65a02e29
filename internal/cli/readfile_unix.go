//go:build unix

package cli

import (
	"io/fs"
	"syscall"
)

// readFile reads a whole file with plain system calls. os.ReadFile also
// registers the file with the runtime's poller (creating it: an epoll
// instance and an event descriptor) and sets a finalizer on it, which a
// command reading one small module and exiting, as `coop val` does for
// every file it is given, paid for on every start. Errors are os's
// (*fs.PathError).
func readFile(name string) ([]byte, error) {
	var fd int
	for {
		var err error
		if fd, err = syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0); err != syscall.EINTR {
			if err != nil {
				return nil, &fs.PathError{Op: "open", Path: name, Err: err}
			}
			break
		}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	size := 0
	if syscall.Fstat(fd, &st) == nil && st.Size > 0 && int64(int(st.Size)) == st.Size {
		size = int(st.Size)
	}
	// One byte more than the size, so that the read reaching the end
	// needs no second buffer; files reporting no size (in /proc) grow.
	data := make([]byte, 0, max(size+1, 512))
	for {
		n, err := syscall.Read(fd, data[len(data):cap(data)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: name, Err: err}
		case n == 0:
			return data, nil
		}
		data = data[:len(data)+n]
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
	}
}
