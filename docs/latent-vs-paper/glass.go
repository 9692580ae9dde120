package main

func glassCmd(args []string) error   { return nil }
func pruningCmd(args []string) error { return nil }
