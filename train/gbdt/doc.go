// Package gbdt trains gradient-boosted decision trees.
package gbdt
