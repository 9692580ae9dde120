// Package xgboost imports XGBoost models into the IR.
package xgboost
