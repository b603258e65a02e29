package exec

import (
	"fmt"
	"math"
	"strings"

	"github.com/coopshader/coop/spirv"
)

type printfT struct {
	format string
	tys    []*typ
}

// atomic runs an OpAtomic* instruction. Atomicity across workgroups comes
// from a mutex per 8-byte stripe of the address space.
func (l *lane) atomic(in *instr) error {
	r := l.regs
	t := in.at
	addr := r[in.a[0]]
	n := t.bytes()
	if addr%uint64(n) != 0 {
		return l.failAddr(in, addr, "atomic access is not aligned to %d bytes", n)
	}
	b, err := l.region(in, addr, n, in.op != spirv.OpAtomicLoad)
	if err != nil {
		return err
	}
	mu := &l.x.locks[(addr>>3)%uint64(len(l.x.locks))]
	mu.Lock()
	defer mu.Unlock()
	old := rdScalar(t, b)
	w := t.width
	m := mask(w)
	val := func(k int) uint64 { return r[in.a[k]] }
	var nv uint64
	switch in.op {
	case spirv.OpAtomicLoad:
		r[in.res] = old
		return nil
	case spirv.OpAtomicStore:
		wrScalar(t, b, val(3))
		return nil
	case spirv.OpAtomicExchange:
		nv = val(3)
	case spirv.OpAtomicCompareExchange:
		nv = old
		if old == val(5) {
			nv = val(4)
		}
	case spirv.OpAtomicIIncrement:
		nv = (old + 1) & m
	case spirv.OpAtomicIDecrement:
		nv = (old - 1) & m
	case spirv.OpAtomicIAdd:
		nv = (old + val(3)) & m
	case spirv.OpAtomicISub:
		nv = (old - val(3)) & m
	case spirv.OpAtomicSMin:
		nv = uint64(min(sext(old, w), sext(val(3), w))) & m
	case spirv.OpAtomicSMax:
		nv = uint64(max(sext(old, w), sext(val(3), w))) & m
	case spirv.OpAtomicUMin:
		nv = min(old, val(3))
	case spirv.OpAtomicUMax:
		nv = max(old, val(3))
	case spirv.OpAtomicAnd:
		nv = old & val(3)
	case spirv.OpAtomicOr:
		nv = old | val(3)
	case spirv.OpAtomicXor:
		nv = old ^ val(3)
	case spirv.OpAtomicFAddEXT:
		nv = fround(toF64(old, t.ff)+toF64(val(3), t.ff), t.ff)
	case spirv.OpAtomicFMinEXT:
		nv = fround(fpMin(toF64(old, t.ff), toF64(val(3), t.ff)), t.ff)
	case spirv.OpAtomicFMaxEXT:
		nv = fround(fpMax(toF64(old, t.ff), toF64(val(3), t.ff)), t.ff)
	}
	wrScalar(t, b, nv)
	if in.res >= 0 {
		r[in.res] = old
	}
	return nil
}

// printf formats a NonSemantic.DebugPrintf call the way the Vulkan
// validation layers do (%d %i %u %x %X %o %c %f %F %e %E %g %G %a %A %s,
// %vN vectors, l/ll length prefixes) and writes it, prefixed with the
// global invocation id, to the dispatch's printf writer.
func (l *lane) printf(in *instr) error {
	if l.x == nil || l.x.printf == nil {
		return nil
	}
	pt := in.printf
	var sb strings.Builder
	g := l.globalID()
	fmt.Fprintf(&sb, "[%d,%d,%d] ", g[0], g[1], g[2])
	args := make([][]uint64, len(in.a))
	for k, s := range in.a {
		args[k] = l.regs[s : s+int32(max(pt.tys[k].slots, 1))]
	}
	formatPrintf(&sb, pt.format, pt.tys, args)
	// One line per call: a format that ends its own line gets no second
	// line break.
	if !strings.HasSuffix(sb.String(), "\n") {
		sb.WriteByte('\n')
	}
	l.x.printMu.Lock()
	defer l.x.printMu.Unlock()
	_, err := l.x.printf.Write([]byte(sb.String()))
	if err != nil {
		return l.fail(in, "DebugPrintf: %v", err)
	}
	return nil
}

// formatPrintf writes format f with the arguments (their types and slot
// values) the way DebugPrintf formats.
func formatPrintf(sb *strings.Builder, f string, tys []*typ, args [][]uint64) {
	arg := 0
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c != '%' {
			sb.WriteByte(c)
			continue
		}
		j := i + 1
		if j < len(f) && f[j] == '%' {
			sb.WriteByte('%')
			i = j
			continue
		}
		for j < len(f) && strings.IndexByte("-+ #0123456789.", f[j]) >= 0 {
			j++
		}
		spec := f[i+1 : j]
		vn := 1
		if j+1 < len(f) && f[j] == 'v' && f[j+1] >= '1' && f[j+1] <= '9' {
			vn = int(f[j+1] - '0')
			j += 2
		}
		for j < len(f) && (f[j] == 'l' || f[j] == 'h') {
			j++
		}
		if j >= len(f) {
			sb.WriteString(f[i:])
			break
		}
		conv := f[j]
		i = j
		if arg >= len(args) {
			sb.WriteString("<missing>")
			continue
		}
		t := tys[arg]
		vals := args[arg]
		arg++
		ct := t.comp()
		for k := 0; k < vn && k < len(vals); k++ {
			if k > 0 {
				sb.WriteString(", ")
			}
			v := vals[k]
			switch conv {
			case 'd', 'i':
				fmt.Fprintf(sb, "%"+spec+"d", sext(v, max(ct.width, 1)))
			case 'u':
				fmt.Fprintf(sb, "%"+spec+"d", v)
			case 'x', 'X', 'o':
				fmt.Fprintf(sb, "%"+spec+string(conv), v)
			case 'c':
				sb.WriteByte(byte(v))
			case 'f', 'F', 'e', 'E', 'g', 'G':
				fv := toF64(v, ct.ff)
				if ct.kind != kFloat {
					fv = math.Float64frombits(0)
				}
				fmt.Fprintf(sb, "%"+spec+strings.ToLower(string(conv)), fv)
			case 'a', 'A':
				fmt.Fprintf(sb, "%"+spec+"x", toF64(v, ct.ff))
			default:
				fmt.Fprintf(sb, "%%%s%c", spec, conv)
			}
		}
	}
}

// abortMessage formats the message of OpAbortKHR: a struct whose first
// member holds the format as 8-bit characters and whose others are the
// arguments.
func (l *lane) abortMessage(in *instr) string {
	t := l.p.tyOf[l.p.m.Insts[in.idx].Words[1]]
	if t == nil || t.kind != kStruct || len(t.mem) == 0 || t.mem[0].kind != kArray || t.mem[0].elem.width != 8 {
		return ""
	}
	base := in.a[0]
	var f []byte
	for _, c := range l.regs[base+int32(t.moff[0]) : base+int32(t.moff[0]+t.mem[0].slots)] {
		if c&0xff == 0 {
			break
		}
		f = append(f, byte(c))
	}
	var sb strings.Builder
	var args [][]uint64
	for k, mt := range t.mem[1:] {
		o := base + int32(t.moff[k+1])
		args = append(args, l.regs[o:o+int32(max(mt.slots, 1))])
	}
	formatPrintf(&sb, string(f), t.mem[1:], args)
	return sb.String()
}
