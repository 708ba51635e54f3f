package main

import "runtime"

type runtimeMem struct{}

func (runtimeMem) heapMB() float64 {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return float64(m.HeapAlloc) / (1 << 20)
}
