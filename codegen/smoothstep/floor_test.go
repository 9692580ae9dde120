//go:build goexperiment.simd && amd64

package smoothstep_test

import (
	"simd/archsimd"
	"testing"
)

// BenchmarkMarginFloor times the arithmetic that any vector evaluation of
// soft nodes must do, and nothing else: the margins of blocks of 16 nodes
// of 20 features (AVX-512), one node in each lane, each lane adding its
// products in the interpreter's order with separate Mul and Add, eight
// independent blocks in flight, as straight-line code with every operand
// in the first-level cache. Its ns per block and feature, times the blocks
// a row reaches, is the least time that the margins of a row can take this
// way: docs/SMOOTHSTEP.md, "Toward 5x at depth 8", divides it up. It
// measures; it checks nothing.
func BenchmarkMarginFloor(b *testing.B) {
	if !archsimd.X86.AVX512() {
		b.Skip("no AVX-512")
	}
	// On the heap, whose blocks of these sizes start on a 64-byte boundary,
	// so that no load straddles two cache lines.
	m := new([8][16]float32)
	w := new([8][21][16]float32) // bias, then a weight per feature
	x := new([8][20][16]float32)
	for i := range w { // small finite values: no subnormal, no infinity
		for f := range w[i] {
			for l := range w[i][f] {
				w[i][f][l] = float32((i+f+l)%7)/8 - 0.375
			}
		}
		for f := range x[i] {
			for l := range x[i][f] {
				x[i][f][l] = float32((i*f+l)%5)/4 - 0.5
			}
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		margins16(m, w, x)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/(8*20), "ns/block-feature")
}

// margins16 computes the margins of eight blocks of 16 nodes, each
// lane its node's bias plus its 20 products added in order.
func margins16(m *[8][16]float32, w *[8][21][16]float32, x *[8][20][16]float32) {
	m0, m1, m2, m3, m4, m5, m6, m7 := archsimd.LoadFloat32x16(&w[0][0]), archsimd.LoadFloat32x16(&w[1][0]), archsimd.LoadFloat32x16(&w[2][0]), archsimd.LoadFloat32x16(&w[3][0]), archsimd.LoadFloat32x16(&w[4][0]), archsimd.LoadFloat32x16(&w[5][0]), archsimd.LoadFloat32x16(&w[6][0]), archsimd.LoadFloat32x16(&w[7][0])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][1], &x[0][0]), mac16(m1, &w[1][1], &x[1][0]), mac16(m2, &w[2][1], &x[2][0]), mac16(m3, &w[3][1], &x[3][0]), mac16(m4, &w[4][1], &x[4][0]), mac16(m5, &w[5][1], &x[5][0]), mac16(m6, &w[6][1], &x[6][0]), mac16(m7, &w[7][1], &x[7][0])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][2], &x[0][1]), mac16(m1, &w[1][2], &x[1][1]), mac16(m2, &w[2][2], &x[2][1]), mac16(m3, &w[3][2], &x[3][1]), mac16(m4, &w[4][2], &x[4][1]), mac16(m5, &w[5][2], &x[5][1]), mac16(m6, &w[6][2], &x[6][1]), mac16(m7, &w[7][2], &x[7][1])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][3], &x[0][2]), mac16(m1, &w[1][3], &x[1][2]), mac16(m2, &w[2][3], &x[2][2]), mac16(m3, &w[3][3], &x[3][2]), mac16(m4, &w[4][3], &x[4][2]), mac16(m5, &w[5][3], &x[5][2]), mac16(m6, &w[6][3], &x[6][2]), mac16(m7, &w[7][3], &x[7][2])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][4], &x[0][3]), mac16(m1, &w[1][4], &x[1][3]), mac16(m2, &w[2][4], &x[2][3]), mac16(m3, &w[3][4], &x[3][3]), mac16(m4, &w[4][4], &x[4][3]), mac16(m5, &w[5][4], &x[5][3]), mac16(m6, &w[6][4], &x[6][3]), mac16(m7, &w[7][4], &x[7][3])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][5], &x[0][4]), mac16(m1, &w[1][5], &x[1][4]), mac16(m2, &w[2][5], &x[2][4]), mac16(m3, &w[3][5], &x[3][4]), mac16(m4, &w[4][5], &x[4][4]), mac16(m5, &w[5][5], &x[5][4]), mac16(m6, &w[6][5], &x[6][4]), mac16(m7, &w[7][5], &x[7][4])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][6], &x[0][5]), mac16(m1, &w[1][6], &x[1][5]), mac16(m2, &w[2][6], &x[2][5]), mac16(m3, &w[3][6], &x[3][5]), mac16(m4, &w[4][6], &x[4][5]), mac16(m5, &w[5][6], &x[5][5]), mac16(m6, &w[6][6], &x[6][5]), mac16(m7, &w[7][6], &x[7][5])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][7], &x[0][6]), mac16(m1, &w[1][7], &x[1][6]), mac16(m2, &w[2][7], &x[2][6]), mac16(m3, &w[3][7], &x[3][6]), mac16(m4, &w[4][7], &x[4][6]), mac16(m5, &w[5][7], &x[5][6]), mac16(m6, &w[6][7], &x[6][6]), mac16(m7, &w[7][7], &x[7][6])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][8], &x[0][7]), mac16(m1, &w[1][8], &x[1][7]), mac16(m2, &w[2][8], &x[2][7]), mac16(m3, &w[3][8], &x[3][7]), mac16(m4, &w[4][8], &x[4][7]), mac16(m5, &w[5][8], &x[5][7]), mac16(m6, &w[6][8], &x[6][7]), mac16(m7, &w[7][8], &x[7][7])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][9], &x[0][8]), mac16(m1, &w[1][9], &x[1][8]), mac16(m2, &w[2][9], &x[2][8]), mac16(m3, &w[3][9], &x[3][8]), mac16(m4, &w[4][9], &x[4][8]), mac16(m5, &w[5][9], &x[5][8]), mac16(m6, &w[6][9], &x[6][8]), mac16(m7, &w[7][9], &x[7][8])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][10], &x[0][9]), mac16(m1, &w[1][10], &x[1][9]), mac16(m2, &w[2][10], &x[2][9]), mac16(m3, &w[3][10], &x[3][9]), mac16(m4, &w[4][10], &x[4][9]), mac16(m5, &w[5][10], &x[5][9]), mac16(m6, &w[6][10], &x[6][9]), mac16(m7, &w[7][10], &x[7][9])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][11], &x[0][10]), mac16(m1, &w[1][11], &x[1][10]), mac16(m2, &w[2][11], &x[2][10]), mac16(m3, &w[3][11], &x[3][10]), mac16(m4, &w[4][11], &x[4][10]), mac16(m5, &w[5][11], &x[5][10]), mac16(m6, &w[6][11], &x[6][10]), mac16(m7, &w[7][11], &x[7][10])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][12], &x[0][11]), mac16(m1, &w[1][12], &x[1][11]), mac16(m2, &w[2][12], &x[2][11]), mac16(m3, &w[3][12], &x[3][11]), mac16(m4, &w[4][12], &x[4][11]), mac16(m5, &w[5][12], &x[5][11]), mac16(m6, &w[6][12], &x[6][11]), mac16(m7, &w[7][12], &x[7][11])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][13], &x[0][12]), mac16(m1, &w[1][13], &x[1][12]), mac16(m2, &w[2][13], &x[2][12]), mac16(m3, &w[3][13], &x[3][12]), mac16(m4, &w[4][13], &x[4][12]), mac16(m5, &w[5][13], &x[5][12]), mac16(m6, &w[6][13], &x[6][12]), mac16(m7, &w[7][13], &x[7][12])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][14], &x[0][13]), mac16(m1, &w[1][14], &x[1][13]), mac16(m2, &w[2][14], &x[2][13]), mac16(m3, &w[3][14], &x[3][13]), mac16(m4, &w[4][14], &x[4][13]), mac16(m5, &w[5][14], &x[5][13]), mac16(m6, &w[6][14], &x[6][13]), mac16(m7, &w[7][14], &x[7][13])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][15], &x[0][14]), mac16(m1, &w[1][15], &x[1][14]), mac16(m2, &w[2][15], &x[2][14]), mac16(m3, &w[3][15], &x[3][14]), mac16(m4, &w[4][15], &x[4][14]), mac16(m5, &w[5][15], &x[5][14]), mac16(m6, &w[6][15], &x[6][14]), mac16(m7, &w[7][15], &x[7][14])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][16], &x[0][15]), mac16(m1, &w[1][16], &x[1][15]), mac16(m2, &w[2][16], &x[2][15]), mac16(m3, &w[3][16], &x[3][15]), mac16(m4, &w[4][16], &x[4][15]), mac16(m5, &w[5][16], &x[5][15]), mac16(m6, &w[6][16], &x[6][15]), mac16(m7, &w[7][16], &x[7][15])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][17], &x[0][16]), mac16(m1, &w[1][17], &x[1][16]), mac16(m2, &w[2][17], &x[2][16]), mac16(m3, &w[3][17], &x[3][16]), mac16(m4, &w[4][17], &x[4][16]), mac16(m5, &w[5][17], &x[5][16]), mac16(m6, &w[6][17], &x[6][16]), mac16(m7, &w[7][17], &x[7][16])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][18], &x[0][17]), mac16(m1, &w[1][18], &x[1][17]), mac16(m2, &w[2][18], &x[2][17]), mac16(m3, &w[3][18], &x[3][17]), mac16(m4, &w[4][18], &x[4][17]), mac16(m5, &w[5][18], &x[5][17]), mac16(m6, &w[6][18], &x[6][17]), mac16(m7, &w[7][18], &x[7][17])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][19], &x[0][18]), mac16(m1, &w[1][19], &x[1][18]), mac16(m2, &w[2][19], &x[2][18]), mac16(m3, &w[3][19], &x[3][18]), mac16(m4, &w[4][19], &x[4][18]), mac16(m5, &w[5][19], &x[5][18]), mac16(m6, &w[6][19], &x[6][18]), mac16(m7, &w[7][19], &x[7][18])
	m0, m1, m2, m3, m4, m5, m6, m7 = mac16(m0, &w[0][20], &x[0][19]), mac16(m1, &w[1][20], &x[1][19]), mac16(m2, &w[2][20], &x[2][19]), mac16(m3, &w[3][20], &x[3][19]), mac16(m4, &w[4][20], &x[4][19]), mac16(m5, &w[5][20], &x[5][19]), mac16(m6, &w[6][20], &x[6][19]), mac16(m7, &w[7][20], &x[7][19])
	m0.Store(&m[0])
	m1.Store(&m[1])
	m2.Store(&m[2])
	m3.Store(&m[3])
	m4.Store(&m[4])
	m5.Store(&m[5])
	m6.Store(&m[6])
	m7.Store(&m[7])
}

func mac16(m archsimd.Float32x16, w, x *[16]float32) archsimd.Float32x16 {
	return m.Add(archsimd.LoadFloat32x16(w).Mul(archsimd.LoadFloat32x16(x)))
}
