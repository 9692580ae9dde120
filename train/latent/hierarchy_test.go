package latent

import (
	"reflect"
	"testing"
)

func TestClusters(t *testing.T) {
	tests := []struct {
		name  string
		paths [][]int
		class []int
		want  []Cluster
	}{
		{"one node", [][]int{{0}, {0}}, []int{1, 1}, []Cluster{{Node: 0, Depth: 0, Rows: 2, Majority: 1, Share: 1}}},
		{"two leaves", [][]int{{0, 1}, {0, 2}, {0, 2}, {0, 1}}, []int{0, 1, 0, 0},
			[]Cluster{{Node: 1, Depth: 1, Rows: 2, Majority: 0, Share: 1}, {Node: 2, Depth: 1, Rows: 2, Majority: 0, Share: 0.5}}},
		{"by node index", [][]int{{0, 2, 5}, {0, 1}}, []int{2, 0},
			[]Cluster{{Node: 1, Depth: 1, Rows: 1, Majority: 0, Share: 1}, {Node: 5, Depth: 2, Rows: 1, Majority: 2, Share: 1}}},
		{"no rows", nil, nil, nil},
	}
	for _, tc := range tests {
		if got := Clusters(tc.paths, tc.class); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
